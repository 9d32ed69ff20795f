"""`drrag index COPY` on an index of the original adds a root and says so; `--replace`
(alias `--only`) re-points the index to exactly the PATHs given."""

from __future__ import annotations

import json
import shutil
from pathlib import Path


def _index(cli, *args: str) -> dict:  # noqa: ANN001
    code, out, err = cli("index", *args, "--index", "ix", "--json")
    assert code == 0, err
    return json.loads(out)


def test_a_copy_is_a_new_root_and_says_so(cli, corpus: Path, tmp_path: Path) -> None:  # noqa: ANN001
    base = _index(cli, str(corpus))
    assert base["roots"] == [str(corpus)] and base["roots_added"] == [str(corpus)]
    copy = tmp_path / "copy"
    shutil.copytree(corpus, copy)

    code, out, err = cli("index", str(copy), "--index", "ix")  # human mode
    assert code == 0 and out == ""
    assert "new root copy: the index now covers 2 roots (copy, corpus)" in err
    assert "--replace" in err
    assert "6 added files have the same bytes as other indexed files" in err

    status = json.loads(cli("status", "--index", "ix", "--json")[1])
    assert status["passages"] == 2 * base["passages_total"]
    assert status["roots"] == sorted([str(corpus), str(copy)])


def test_json_reports_roots_added_and_duplicates(cli, corpus: Path, tmp_path: Path) -> None:  # noqa: ANN001
    base = _index(cli, str(corpus))
    copy = tmp_path / "copy"
    shutil.copytree(corpus, copy)
    report = _index(cli, str(copy))
    assert report["roots_added"] == [str(copy)] and report["roots_removed"] == []
    assert report["duplicate_files"] == 6 and report["files"]["added"] == 6
    assert report["passages_total"] == 2 * base["passages_total"]
    assert report["passages_embedded"] == 0  # same text: vectors come from the cache


def test_replace_repoints_the_index(cli, corpus: Path, tmp_path: Path) -> None:  # noqa: ANN001
    base = _index(cli, str(corpus))
    copy = tmp_path / "copy"
    shutil.copytree(corpus, copy)
    _index(cli, str(copy))  # the doubled index of the issue
    report = _index(cli, str(copy), "--replace")
    assert report["roots"] == [str(copy)] and report["roots_removed"] == [str(corpus)]
    assert report["files"]["removed"] == 6 and report["passages_total"] == base["passages_total"]
    assert report["passages_embedded"] == 0 and report["duplicate_files"] == 0

    code, out, _ = cli("search", "Where was Mara Quint born?", "--index", "ix", "--json", "--mode", "bm25")
    assert code == 0 and all(r["source"].startswith(str(copy)) for r in json.loads(out)["results"])
    assert _index(cli)["roots"] == [str(copy)]  # a re-sync walks the copy only

    code, _, err = cli("index", str(copy), "--index", "ix")
    assert code == 0 and "new root" not in err and "same bytes" not in err


def test_only_is_replace_straight_from_a_first_index(cli, corpus: Path, tmp_path: Path) -> None:  # noqa: ANN001
    base = _index(cli, str(corpus))
    copy = tmp_path / "copy"
    shutil.copytree(corpus, copy)
    code, _, err = cli("index", str(copy), "--only", "--index", "ix")
    assert code == 0 and f"dropped root {corpus.name}: its files are no longer indexed" in err
    assert "new root" not in err
    status = json.loads(cli("status", "--index", "ix", "--json")[1])
    assert status["roots"] == [str(copy)] and status["passages"] == base["passages_total"]


def test_replace_needs_paths(cli, corpus: Path) -> None:  # noqa: ANN001
    _index(cli, str(corpus))
    code, out, err = cli("index", "--replace", "--index", "ix")
    assert code == 1 and out == "" and err.count("\n") == 1
    assert "--replace needs the PATHs" in err


def test_rebuild_keeps_only_the_paths_given(cli, corpus: Path, tmp_path: Path) -> None:  # noqa: ANN001
    other = tmp_path / "other"
    other.mkdir()
    (other / "x.md").write_text("# X\nThe xylophone archive lives in Oslo.\n", encoding="utf-8")
    _index(cli, str(corpus))
    _index(cli, str(other))
    report = _index(cli, str(other), "--rebuild")
    assert report["roots"] == [str(other)] and report["roots_removed"] == [str(corpus)]
    assert _index(cli)["files"]["unchanged"] == 1  # a re-sync does not bring the corpus back


def test_help_documents_replace_and_only(cli) -> None:  # noqa: ANN001
    code, out, _ = cli("index", "--help")
    assert code == 0 and "--replace" in out and "--only" in out and "--replace  (the index now covers" in out
