"""A damaged index folder, whichever file it is: `doctor` names it, `search` names the fix
(one line, exit 1), and `drrag index CORPUS --index IDX --rebuild` sets it aside and
rebuilds (exit 0), after which search works again; an incremental `drrag index` repairs
a damaged live generation too instead of reporting "nothing changed" (issue 53).

Real components throughout. The corpus is indexed once per module; each case damages a
copy of that index folder.
"""

from __future__ import annotations

import json
import os
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest

from drrag_cli.config import Settings
from drrag_cli.doctor import DoctorReport, _index_checks
from drrag_cli.index import layout
from drrag_cli.index.api import Index
from tests.conftest import truncate, write_corpus

NOISE = bytes(range(256)) * 16  # 4 KB that is neither UTF-8 text nor an SQLite page


def _live(ix: Path) -> Path:
    return ix / (ix / "CURRENT").read_text().strip()


def _scribble(path: Path, offset: int) -> None:
    """Random bytes written over part of a file, as a disk error or a stray `dd` leaves it."""
    with open(path, "r+b") as fh:
        fh.seek(offset)
        fh.write(NOISE)


def _truncate_meta(ix: Path) -> None:
    meta = _live(ix) / "bm25" / "meta.json"
    meta.write_bytes(meta.read_bytes()[:40])


# case → (damage, the doctor check that names it, the words it uses)
DAMAGE: dict[str, tuple[Callable[[Path], None], str, str]] = {
    "CURRENT empty": (lambda ix: (ix / "CURRENT").write_bytes(b""), "index", "CURRENT holds nothing"),
    "CURRENT garbage": (lambda ix: (ix / "CURRENT").write_bytes(NOISE[128:200]), "index", "CURRENT holds"),
    "CURRENT names nothing": (lambda ix: (ix / "CURRENT").write_text("gen-000099\n"), "index", "gen-000099"),
    "manifest missing": (lambda ix: (_live(ix) / "manifest.json").unlink(), "index", "manifest.json is missing"),
    "manifest garbled": (lambda ix: (_live(ix) / "manifest.json").write_bytes(NOISE[100:300]), "index",
                         "manifest.json cannot be read"),
    "manifest not an object": (lambda ix: (_live(ix) / "manifest.json").write_text("[1, 2]"), "index",
                               "manifest.json holds a JSON list"),
    "store missing": (lambda ix: (_live(ix) / "store.sqlite").unlink(), "index store", "store.sqlite is missing"),
    "store truncated": (lambda ix: truncate(_live(ix) / "store.sqlite"), "index store", "store.sqlite"),
    "store garbage": (lambda ix: (_live(ix) / "store.sqlite").write_bytes(NOISE), "index store",
                      "not an SQLite database"),
    "bm25 missing": (lambda ix: shutil.rmtree(_live(ix) / "bm25"), "index bm25", "bm25 is missing"),
    "bm25 meta missing": (lambda ix: (_live(ix) / "bm25" / "meta.json").unlink(), "index bm25", "bm25"),
    "bm25 meta truncated": (_truncate_meta, "index bm25", "bm25 cannot be read"),
    "dense missing": (lambda ix: (_live(ix) / "dense.hnsw").unlink(), "index dense", "dense.hnsw is missing"),
    "dense truncated": (lambda ix: truncate(_live(ix) / "dense.hnsw"), "index dense", "dense.hnsw cannot be read"),
}
CACHE_DAMAGE: dict[str, Callable[[Path], None]] = {
    "vectors scribbled": lambda ix: _scribble(ix / "vectors.sqlite", 4096),
    "vectors garbage": lambda ix: (ix / "vectors.sqlite").write_bytes(NOISE * 4),
}


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """(corpus, index folder) built once; cases damage a copy of the folder."""
    base = tmp_path_factory.mktemp("repair")
    corpus = write_corpus(base / "corpus")
    Index.build([corpus], Settings(), path=base / "ix")
    return corpus, base / "ix"


@pytest.fixture()
def ix(built: tuple[Path, Path], tmp_path: Path) -> Path:
    return Path(shutil.copytree(built[1], tmp_path / "ix"))


def _doctor(ix: Path) -> DoctorReport:
    report = DoctorReport()
    _index_checks(report, Settings().replace({"index.path": str(ix)}))
    return report


def _search_fails_with_the_fix(cli, ix: Path, corpus: Path | None, modes: tuple[str, ...] = ("hybrid",)) -> str:  # noqa: ANN001
    """A search (hybrid opens every part): one line naming the fix, exit 1; with the
    corpus's real path when a manifest still says it (``corpus`` None: none does)."""
    fix = f"drrag index {corpus or 'PATH...'} --index {ix} --rebuild"
    for mode in modes:
        code, out, err = cli("search", "Mara Quint", "--index", str(ix), "--mode", mode)
        assert code == 1 and out == "", (mode, err)
        assert len(err.strip().splitlines()) == 1 and "internal error" not in err, err
        assert fix in err, err
    return err


def _search_works(cli, ix: Path) -> None:  # noqa: ANN001
    code, out, err = cli("search", "where was Mara Quint born", "--index", str(ix), "--json")
    assert code == 0, err
    assert any("Tromsø" in r["text"] for r in json.loads(out)["results"])


@pytest.mark.parametrize("case", list(DAMAGE))
def test_damage_is_named_then_rebuild_repairs_it(case: str, cli, ix: Path, built: tuple[Path, Path]) -> None:  # noqa: ANN001
    corpus = built[0]
    damage, check, words = DAMAGE[case]
    damage(ix)

    failed = [c for c in _doctor(ix).checks if not c.ok]
    assert [c.check for c in failed] == [check], failed
    assert words in failed[0].detail and "--rebuild" in failed[0].detail, failed[0].detail

    modes = ("hybrid", "bm25", "dense") if "missing" in case else ("hybrid",)  # a missing file fails every mode
    err = _search_fails_with_the_fix(cli, ix, None if case.startswith("manifest") else corpus, modes)
    assert words in err

    code, out, err = cli("index", str(corpus), "--index", str(ix), "--rebuild", "--json")
    assert code == 0, err
    report = json.loads(out)
    assert report["published"] and report["passages_embedded"] == 0  # every vector came from the cache
    (repaired,) = report["repaired"]
    assert words in repaired and "set aside in" in repaired
    assert (ix / "damaged-1").is_dir()
    assert all(c.ok for c in _doctor(ix).checks)
    _search_works(cli, ix)


@pytest.mark.parametrize("case", ["CURRENT garbage", "manifest garbled", "store truncated", "bm25 meta truncated",
                                  "dense missing"])  # one of each part: the same code path as --rebuild
def test_incremental_index_repairs_instead_of_nothing_changed(case: str, cli, ix: Path, built) -> None:  # noqa: ANN001
    corpus = built[0]
    DAMAGE[case][0](ix)
    code, _, err = cli("index", str(corpus), "--index", str(ix))
    assert code == 0, err
    assert "nothing changed" not in err and "repaired: " in err and "set aside in" in err, err
    _search_works(cli, ix)
    code, _, err = cli("index", str(corpus), "--index", str(ix))
    assert code == 0 and "nothing changed" in err and "repaired" not in err  # whole again


def test_no_paths_takes_the_roots_from_the_generation_before(cli, ix: Path, built) -> None:  # noqa: ANN001
    """With the live manifest gone, `drrag index --rebuild` alone still knows the folders:
    the generation before keeps its manifest a round."""
    corpus = built[0]
    assert cli("index", str(corpus), "--index", str(ix), "--rebuild")[0] == 0  # now two generations
    (_live(ix) / "manifest.json").unlink()
    assert f"drrag index {corpus} --index {ix} --rebuild" in _search_fails_with_the_fix(cli, ix, corpus)
    code, _, err = cli("index", "--index", str(ix), "--rebuild")
    assert code == 0 and "repaired: " in err, err
    _search_works(cli, ix)


@pytest.mark.parametrize("case", list(CACHE_DAMAGE))
def test_damaged_vector_cache_is_named_and_set_aside(case: str, cli, ix: Path, built) -> None:  # noqa: ANN001
    corpus = built[0]
    CACHE_DAMAGE[case](ix)
    failed = [c for c in _doctor(ix).checks if not c.ok]
    assert [c.check for c in failed] == ["embedding cache"], failed
    assert "vectors.sqlite" in failed[0].detail and "--rebuild" in failed[0].detail
    _search_works(cli, ix)  # readers never open the cache

    code, out, err = cli("index", str(corpus), "--index", str(ix), "--rebuild", "--json")
    assert code == 0, err
    report = json.loads(out)
    (repaired,) = report["repaired"]
    assert "vectors.sqlite" in repaired and "set aside in" in repaired and "taken back" in repaired
    assert report["passages_embedded"] == 0 < report["passages_total"]  # the live HNSW held every vector
    assert (ix / "damaged-1" / "vectors.sqlite").is_file()
    assert all(c.ok for c in _doctor(ix).checks)
    _search_works(cli, ix)


@pytest.mark.parametrize("case", list(CACHE_DAMAGE))
def test_incremental_index_repairs_the_vector_cache_too(case: str, cli, ix: Path, built) -> None:  # noqa: ANN001
    """Nothing changed in the files, but the cache is damaged: set aside and refilled
    from the live HNSW, no generation written; the next change embeds only itself."""
    corpus = built[0]
    CACHE_DAMAGE[case](ix)
    code, out, err = cli("index", str(corpus), "--index", str(ix), "--json")
    report = json.loads(out)
    assert code == 0 and not report["published"], err
    (repaired,) = report["repaired"]
    assert "vectors.sqlite" in repaired and "taken back" in repaired
    assert all(c.ok for c in _doctor(ix).checks)


def test_damaged_vector_cache_and_generation_embed_again(cli, ix: Path, built) -> None:  # noqa: ANN001
    """Nothing whole to take vectors back from: they are computed again, the same ones."""
    corpus = built[0]
    before = Index.open(Settings().replace({"index.path": str(ix)}))
    ids = [row[0] for row in before.store.all_passages()]
    vecs = before.vectors(ids)
    (ix / "vectors.sqlite").write_bytes(NOISE)
    (_live(ix) / "dense.hnsw").unlink()
    code, out, err = cli("index", str(corpus), "--index", str(ix), "--rebuild", "--json")
    assert code == 0, err
    report = json.loads(out)
    assert len(report["repaired"]) == 2 and "computed again" in report["repaired"][0]
    assert report["passages_embedded"] == report["passages_total"] > 0
    after = Index.open(Settings().replace({"index.path": str(ix)}))
    assert [row[0] for row in after.store.all_passages()] == ids  # the same files, in the same order
    assert float(abs(after.vectors(ids) - vecs).max()) < 1e-4
    _search_works(cli, ix)


def test_doctor_cli_names_the_damaged_file(cli, ix: Path) -> None:  # noqa: ANN001
    """The full `drrag doctor --json`: the damaged part fails, with its fix."""
    (_live(ix) / "dense.hnsw").unlink()
    code, out, err = cli("doctor", "--index", str(ix), "--json")
    report = json.loads(out)
    failed = [c for c in report["checks"] if not c["ok"]]
    assert code == 1 and "index dense" in err
    assert [c["check"] for c in failed] == ["index dense"]
    assert "dense.hnsw is missing" in failed[0]["detail"] and "--rebuild" in failed[0]["detail"]


def test_index_that_is_a_file_or_not_an_index(cli, tmp_path: Path, built) -> None:  # noqa: ANN001
    corpus = built[0]
    afile = tmp_path / "passwd"
    afile.write_text("root:x:0:0:root:/root:/bin/bash\n")
    for args in (("search", "x", "--index", str(afile)), ("index", str(corpus), "--index", str(afile))):
        code, _, err = cli(*args)
        assert code == 1 and "is a file, not an index folder" in err and len(err.strip().splitlines()) == 1, err
    folder = tmp_path / "photos"
    folder.mkdir()
    (folder / "cat.jpg").write_bytes(b"\xff\xd8")
    code, _, err = cli("search", "x", "--index", str(folder))
    assert code == 1 and f"no index at {folder}" in err and len(err.strip().splitlines()) == 1, err


def test_a_kill_before_the_damaged_generation_is_moved_leaves_a_usable_index(ix: Path, built, monkeypatch) -> None:  # noqa: ANN001
    """The repair publishes first and sets the damaged generation aside after: a kill in
    between (here: the move fails) leaves the repaired generation live."""
    from drrag_cli.index import repair

    corpus = built[0]
    damaged = _live(ix)
    (damaged / "dense.hnsw").unlink()

    def killed(self, *paths):  # noqa: ANN001, ANN202
        raise KeyboardInterrupt

    monkeypatch.setattr(repair.SetAside, "move", killed)
    settings = Settings().replace({"index.path": str(ix)})
    with pytest.raises(KeyboardInterrupt):
        Index.build([corpus], settings)
    assert _live(ix) != damaged and damaged.is_dir()
    assert Index.open(settings).search("Mara Quint", mode="dense", k=1)
    monkeypatch.undo()
    report = Index.build([corpus], settings)
    assert not report.published and not report.repaired  # the live one is whole; the old one is pruned later
    assert layout.current_generation(ix) is not None and os.path.isdir(damaged)
