"""`drrag collection ...` and `drrag index` re-syncing every collection."""

from __future__ import annotations

import json
from pathlib import Path


def test_collection_commands_and_index_resync(cli, corpus: Path) -> None:  # noqa: ANN001
    code, out, err = cli("collection", "add", "notes", str(corpus / "notes"), "--exclude", "*.rst")
    assert code == 0 and out == "" and "collection notes: 2 files" in err
    code, _, err = cli("collection", "add", "wiki", str(corpus / "wiki"), "--json")
    assert code == 0

    code, out, _ = cli("collection", "list", "--json")
    rows = json.loads(out)
    assert [r["name"] for r in rows] == ["notes", "wiki"] and rows[0]["exclude"] == ["*.rst"]

    (corpus / "notes" / "new.md").write_text("# New\n\nA new note about the Quint lab.\n", encoding="utf-8")
    code, out, err = cli("index", "--json")  # no local .drrag: the collections only
    reports = json.loads(out)
    assert code == 0 and [r["collection"] for r in reports] == ["notes", "wiki"]
    assert reports[0]["files"]["added"] == 1 and reports[1]["files"]["unchanged"] == 2
    code, out, _ = cli("search", "Quint lab", "--mode", "bm25", "--json", "-k", "1")  # the union index
    assert code == 0 and json.loads(out)["results"][0]["source"].endswith("new.md")
    from drrag_cli.collections import Registry
    from drrag_cli.config import Settings

    assert Registry().open([], Settings()).union is not None  # rebuilt after the re-sync

    assert cli("index", str(corpus / "wiki"))[0] == 0  # PATH: the local index, as before
    code, _, err = cli("index")
    lines = err.strip().splitlines()
    assert code == 0 and lines[0].startswith("indexed .drrag:") and "(nothing changed)" in lines[0]
    assert lines[1].startswith("indexed collection notes:") and lines[2].startswith("indexed collection wiki:")

    code, _, err = cli("collection", "rename", "wiki", "web")
    assert code == 0 and "renamed collection wiki to web" in err
    code, _, err = cli("collection", "remove", "notes")
    assert code == 0 and [r["name"] for r in json.loads(cli("collection", "list", "--json")[1])] == ["web"]


def test_bad_names_and_unknown_collections_are_one_line(cli, corpus: Path) -> None:  # noqa: ANN001
    for args in (
        ("collection", "add", "my notes", str(corpus)),
        ("collection", "remove", "nope"),
        ("collection", "rename", "nope", "other"),
        ("collection", "add", "x", str(corpus / "missing")),
    ):
        code, out, err = cli(*args)
        assert code == 1 and out == "" and err.count("\n") == 1 and err.startswith("drrag: error:"), (args, err)
    assert json.loads(cli("collection", "list", "--json")[1]) == []


def _two_hop_collections(cli, corpus: Path) -> None:  # noqa: ANN001
    """Heron's note in `notes`, the note about its lead engineer in `people`."""
    assert cli("collection", "add", "notes", str(corpus / "notes"), "--exclude", "mara.txt")[0] == 0
    assert cli("collection", "add", "people", str(corpus / "notes" / "mara.txt"))[0] == 0


QUESTION = "In which city was the lead engineer of Project Heron born?"


def test_search_fuses_collections_and_names_them(cli, corpus: Path) -> None:  # noqa: ANN001
    _two_hop_collections(cli, corpus)
    code, out, err = cli("search", "Mara Quint born Tromsø", "--json", "-k", "3")  # no local index: all
    results = json.loads(out)["results"]
    assert code == 0, err
    assert results[0]["collection"] == "people" and results[0]["source"].endswith("mara.txt")
    assert {r["collection"] for r in results} == {"notes", "people"}
    assert len({r["passage_id"] for r in results}) == 3

    code, out, _ = cli("search", "Mara Quint", "--collection", "notes", "--json", "--mode", "bm25")
    assert code == 0 and {r["collection"] for r in json.loads(out)["results"]} == {"notes"}

    code, out, _ = cli("search", QUESTION, "--strategy", "cfs", "--json", "-k", "4")  # the 2nd stage crosses
    sources = {(d["collection"], Path(d["source"]).name) for d in json.loads(out)["documents"]}
    assert {("notes", "heron.md"), ("people", "mara.txt")} <= sources

    code, out, _ = cli("search", "Mara Quint born", "-k", "2")
    assert code == 0 and "people › mara" in out


def test_ask_cites_the_collection(cli, corpus: Path) -> None:  # noqa: ANN001
    _two_hop_collections(cli, corpus)
    code, out, err = cli("ask", QUESTION, "--collection", "notes", "--collection", "people", "-k", "4")
    assert code == 0, err
    sources = out.split("Sources", 1)[1]
    assert "notes › Project Heron" in sources and "people › mara" in sources


def test_targeting_errors_are_one_line(cli, corpus: Path) -> None:  # noqa: ANN001
    _two_hop_collections(cli, corpus)
    for args in (("--collection", "nope"), ("--collection", "notes", "--index", "ix")):
        code, out, err = cli("search", "heron", *args)
        assert code == 1 and out == "" and err.count("\n") == 1, err
    assert cli("index", str(corpus / "wiki"))[0] == 0  # a local index wins when nothing is named
    code, out, _ = cli("search", "heron", "--json", "--mode", "bm25")
    assert code == 0 and all("collection" not in r for r in json.loads(out)["results"])


def test_status_lists_each_collection(cli, corpus: Path) -> None:  # noqa: ANN001
    _two_hop_collections(cli, corpus)
    code, out, err = cli("status", "--json")  # no local index: the collections only
    rows = json.loads(out)["collections"]
    assert code == 0, err
    assert [r["name"] for r in rows] == ["notes", "people"]
    assert rows[1]["files"] == 1 and rows[1]["passages"] >= 1 and rows[1]["size_bytes"] > 0
    assert rows[0]["embedding_model"] == rows[1]["embedding_model"] and rows[0]["last_sync"] > 0
    code, out, _ = cli("status")
    assert code == 0 and "people" in out and "notes" in out

    assert cli("index", str(corpus / "wiki"))[0] == 0
    info = json.loads(cli("status", "--json")[1])
    assert info["files"] == 2 and len(info["collections"]) == 2
    assert "collections" not in json.loads(cli("status", "--index", ".drrag", "--json")[1])


def test_a_collection_whose_folder_is_gone_does_not_stop_the_others(cli, corpus: Path) -> None:  # noqa: ANN001
    assert cli("collection", "add", "wiki", str(corpus / "wiki"))[0] == 0
    assert cli("collection", "add", "notes", str(corpus / "notes"))[0] == 0
    for f in (corpus / "wiki").iterdir():
        f.unlink()
    (corpus / "wiki").rmdir()
    (corpus / "notes" / "new.md").write_text("# New\n\nAnother note.\n", encoding="utf-8")
    code, out, err = cli("index", "--json")
    reports = {r["collection"]: r for r in json.loads(out)}
    assert code == 1 and err.count("\n") == 1 and "could not re-sync collection wiki (path" in err
    assert "does not exist" in reports["wiki"]["error"] and reports["notes"]["files"]["added"] == 1
