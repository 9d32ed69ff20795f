"""spaCy's sentencizer replayed without spaCy cuts every text where spaCy cuts it."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest

from drrag_cli.ingest import spacy_replay
from drrag_cli.ingest.sentencizer import nlp
from tests.conftest import SHARED_DATA

TRICKY = [
    "Hello there. This is Dr. Smith! Is it? Yes.",
    "He moved to the U.S. in 1990. Then he left at 5 a.m. (a.m.) on Jan. 3rd...",
    "It ends.Next it starts. Plan B. Then IBM. And WWII. Then the letter X. Done!?",
    "See http://example.org/a?b=1. Or www.example.com. Mail a@b.com. :) Good. :-( Bad.",
    "東京は日本の首都です。大阪も大きい。 Ελλάδα. Über 3.5 km², 40°C. Next.",
    "\u201cQuoted.\u201d Next one. 'Single.' (Bracketed.) [1] Then - dash. \u2014 Em.",
    "Line one.\nLine two\n  indented. Tab\there.\u00a0Non-breaking. Done",
    "don't won't rock'n'roll O'Neil's 5'10\" 1,000 $5 10% C++ x=y a/b -- e.g. i.e. etc. vs. No. 7",
    "   leading spaces. trailing   ",
    "...!!! ??? . . . end",
]
PIECES = [
    "word", "Word", "U.S.", "a.m.", ":)", "(", ")", ".", "!", "?", "...", "'s", "n't", "Mr.", "e.g.", "3.5", "$",
    "%", '"', "\u201c", "\u201d", "\n", "  ", "\t", "\u3002", "\u2014", "http://x.org/a?b=1", "A.", "c.", "IBM.",
    "end.Next", "Jan.", "\u00b0C.", "**bold**", "[l](http://a.b)", "|", "---", "?!", "Ph.D.", "O'Neil", ",", ";",
    "\u2026", "\u00bf", "12:30", "1,000", "(a.m.)", "[1]", "C++", "\u00a0",
]


@pytest.fixture(scope="module")
def replay(tmp_path_factory: pytest.TempPathFactory) -> spacy_replay.Replay:
    """The replay of the rules the shared pipeline writes, through a file as users get it."""
    cache = tmp_path_factory.mktemp("xdg-cache")
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("XDG_CACHE_HOME", str(cache))
        version = spacy_replay.spacy_version()
        assert version is not None
        spacy_replay.save_rules(nlp(), version)
        assert spacy_replay.rules_path(version).is_file()
        found = spacy_replay.Replay(json.loads(spacy_replay.rules_path(version).read_text(encoding="utf-8")))
    return found


def spacy_sentences(text: str) -> list[tuple[int, int]]:
    return [(s.start_char, s.end_char) for s in nlp()(text).sents]


@pytest.mark.parametrize("text", TRICKY)
def test_tricky_texts_are_tokenized_and_cut_as_spacy_does(replay: spacy_replay.Replay, text: str) -> None:
    assert [text[a:b] for a, b in replay.tokenize(text)] == [t.text for t in nlp().tokenizer(text)]
    assert replay.sentences(text) == spacy_sentences(text)


def test_random_texts_of_hard_pieces_are_cut_as_spacy_does(replay: spacy_replay.Replay) -> None:
    rng = random.Random(7)
    for _ in range(2000):
        text = "".join(rng.choice(PIECES) + rng.choice(["", " ", " ", "  ", "\n"]) for _ in range(rng.randint(1, 20)))
        assert replay.sentences(text) == spacy_sentences(text), text


@pytest.mark.skipif(not (SHARED_DATA / "hotpotqa").is_dir(), reason="../shared/data is absent")
def test_every_shared_hotpotqa_paragraph_is_cut_as_spacy_does(replay: spacy_replay.Replay) -> None:
    texts = {c["paragraph_text"] for line in (SHARED_DATA / "hotpotqa" / "dev500.ircot.jsonl").open(encoding="utf-8")
             for c in json.loads(line)["contexts"]}
    texts = sorted(texts)
    want = [[(s.start_char, s.end_char) for s in doc.sents] for doc in nlp().pipe(texts, batch_size=50)]
    assert [replay.sentences(t) for t in texts] == want


def test_no_rules_file_or_another_version_means_no_replay(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    spacy_replay.load.cache_clear()
    assert spacy_replay.load("0.0.0-none") is None
    path = spacy_replay.rules_path("0.0.1")
    path.parent.mkdir(parents=True)
    path.write_text(json.dumps({"format": spacy_replay.FORMAT, "spacy": "0.0.2"}), encoding="utf-8")
    assert spacy_replay.load("0.0.1") is None  # a file that names another version
    head = {"format": spacy_replay.FORMAT, "spacy": "0.0.1"}
    bad_pattern = {**head, "prefix": {"pattern": "(", "flags": 32}, "suffix": None, "infix": None,
                   "token_match": None, "url_match": None, "special": {}, "punct_chars": [], "faster_heuristics": True}
    for damaged in ("{not json", "[]", json.dumps(head), json.dumps(bad_pattern)):
        path.write_text(damaged, encoding="utf-8")
        spacy_replay.load.cache_clear()
        assert spacy_replay.load("0.0.1") is None, damaged


def test_an_unwritable_cache_only_costs_speed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    blocked = tmp_path / "file"
    blocked.write_text("", encoding="utf-8")
    monkeypatch.setenv("XDG_CACHE_HOME", str(blocked))  # a file where the folder would go
    spacy_replay.save_rules(nlp(), "0.0.3")
    assert not spacy_replay.rules_path("0.0.3").exists()


def test_a_spacy_shaped_otherwise_writes_no_rules(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))

    class Other:  # a pipeline whose tokenizer has none of the attributes read
        tokenizer = object()

    spacy_replay.save_rules(Other(), "0.0.4")
    assert not spacy_replay.rules_path("0.0.4").parent.exists()


CHUNK = """
import sys
from drrag_cli.ingest.chunking import chunk_document
from drrag_cli.types import Document
text = sys.stdin.read()
spans = [(p.char_start, p.char_end) for p in chunk_document(Document("n.md", "N", text), chunk_words=40)]
print(repr(spans), "spacy" in sys.modules)
"""


def test_a_process_without_spacy_chunks_a_note_as_spacy_would(tmp_path: Path) -> None:
    """The first process loads spaCy and writes the rules; the next one chunks without spaCy, the same."""
    text = "# Note\n\n" + " ".join(TRICKY) + "\n\nA second paragraph. It has Mr. Smith in it. " * 6
    env = {**os.environ, "XDG_CACHE_HOME": str(tmp_path)}
    runs = [subprocess.run([sys.executable, "-c", CHUNK], input=text, capture_output=True, text=True, env=env,
                           timeout=120) for _ in range(2)]
    assert [r.returncode for r in runs] == [0, 0], runs[0].stderr + runs[1].stderr
    (first, loaded), (second, loaded_again) = (r.stdout.rsplit(" ", 1) for r in runs)
    assert (loaded.strip(), loaded_again.strip()) == ("True", "False")
    assert first == second and len(eval(first)) > 3  # noqa: S307 - a list of tuples printed by the child


BUDGET = """
import sys
from drrag_cli.ingest import sentencizer
sentencizer.REPLAY_CHARS = 1000
first = list(sentencizer.sentence_bounds(["One. Two."] * 50, 450))
before = "spacy" in sys.modules
second = list(sentencizer.sentence_bounds(["One. Two."] * 70, 630))
print(first == second[:50], before, "spacy" in sys.modules)
"""


def test_a_process_loads_spacy_once_its_replay_budget_is_spent(tmp_path: Path) -> None:
    """A whole build starts on the replay and goes on with spaCy, which splits faster."""
    env = {**os.environ, "XDG_CACHE_HOME": str(tmp_path)}
    subprocess.run([sys.executable, "-c", "from drrag_cli.ingest.sentencizer import nlp; nlp()"], env=env, check=True,
                   timeout=120)  # writes the rules
    run = subprocess.run([sys.executable, "-c", BUDGET], capture_output=True, text=True, env=env, timeout=120)
    assert run.returncode == 0, run.stderr
    assert run.stdout.split() == ["True", "False", "True"]



def test_doctor_says_whether_edits_need_spacy(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from drrag_cli.doctor import DoctorReport, _sentences

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    spacy_replay.load.cache_clear()
    report = DoctorReport()
    report.check("sentence splitter", _sentences)
    assert report.checks[-1].warn and "not cached yet" in report.checks[-1].detail
    spacy_replay.save_rules(nlp(), spacy_replay.spacy_version() or "")
    spacy_replay.load.cache_clear()
    report.check("sentence splitter", _sentences)
    assert not report.checks[-1].warn and "rules cached" in report.checks[-1].detail
