"""The collection registry: slugs, atomic writes, and a folder behind every entry."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from drrag_cli.collections import Registry, check_name
from drrag_cli.config import Settings
from drrag_cli.errors import InputError


@pytest.mark.parametrize("bad", ["", "a b", "../x", "-x", "é", "a/b", "x" * 65])
def test_names_are_slugs(bad: str) -> None:
    with pytest.raises(InputError, match="short slug"):
        check_name(bad)


def test_add_rename_remove_keep_a_folder_behind_every_entry(tmp_path: Path, corpus: Path) -> None:
    reg = Registry(tmp_path / "data")
    report = reg.add("notes", [str(corpus / "notes")], Settings(), exclude=["guide.rst"])
    assert report.passages_total > 0 and "guide.rst" not in json.dumps(report.to_json())
    raw = json.loads(reg.file.read_text())
    assert raw["collections"]["notes"]["paths"] == [str((corpus / "notes").resolve())]
    assert reg.folder(reg.get("notes")) == tmp_path / "data" / "collections" / "notes"
    assert (reg.folder(reg.get("notes")) / "CURRENT").exists()

    with pytest.raises(InputError, match="exists"):
        reg.add("notes", [str(corpus)], Settings())
    with pytest.raises(InputError, match="does not exist"):
        reg.add("wiki", [str(corpus / "nowhere")], Settings())
    assert set(reg.load()) == {"notes"} and not (tmp_path / "data" / "collections" / "wiki").exists()

    reg.rename("notes", "journal")
    assert set(reg.load()) == {"journal"}
    folder = reg.folder(reg.get("journal"))
    assert folder.name == "journal" and (folder / "CURRENT").exists()
    assert not (tmp_path / "data" / "collections" / "notes").exists()

    reg.remove("journal")
    assert reg.load() == {} and not folder.exists()
    with pytest.raises(InputError, match="no collection named 'journal'"):
        reg.remove("journal")


def test_a_rename_cut_short_still_finds_the_folder(tmp_path: Path, corpus: Path) -> None:
    reg = Registry(tmp_path / "data")
    reg.add("notes", [str(corpus / "notes")], Settings())
    coll = reg.get("notes")
    moved = reg.folder(coll).with_name("other")
    reg.folder(coll).rename(moved)  # the folder moved, the entry still says "notes"
    coll.dir = "other"
    assert reg.folder(coll) == moved


def test_an_unreadable_registry_is_one_clear_error(tmp_path: Path) -> None:
    reg = Registry(tmp_path)
    reg.file.write_text("{not json")
    with pytest.raises(InputError, match="fix or delete it"):
        reg.load()


def test_collections_with_different_models_are_refused(tmp_path: Path, corpus: Path) -> None:
    from drrag_cli.errors import IndexMismatchError
    from drrag_cli.index.multi import MultiIndex

    reg = Registry(tmp_path / "data")
    reg.add("a", [str(corpus / "notes")], Settings())
    reg.add("b", [str(corpus / "wiki")], Settings())
    a, b = reg.open(["a"], Settings()).indexes[0], reg.open(["b"], Settings()).indexes[0]
    b.manifest = {**b.manifest, "embedding": {**b.manifest["embedding"], "model_id": "other/model"}}
    with pytest.raises(IndexMismatchError, match="cannot be searched together"):
        MultiIndex([("a", a), ("b", b)])
