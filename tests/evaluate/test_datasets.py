"""Dataset loaders on tiny fixtures in each supported format, plus the shared real data."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from drrag_cli.errors import InputError
from drrag_cli.evaluate.datasets import (
    Paragraph,
    detect_format,
    load_corpus,
    load_dataset,
    paragraph_key,
)

SHARED_DATA = Path(__file__).resolve().parents[3] / "shared" / "data"

# Two HotpotQA questions sharing the paragraph "Alpha" (dedup of the corpus union).
HOTPOT = [
    {
        "_id": "h1",
        "question": "Who founded Alpha?",
        "answer": "Bob Smith",
        "type": "bridge",
        "supporting_facts": [["Beta", 0], ["Alpha", 1], ["Alpha", 0]],
        "context": [
            ["Alpha", ["Alpha is a firm.", " It was founded by Bob."]],
            ["Beta", ["Bob Smith is Bob."]],
            ["Gamma", ["Gamma is a distractor."]],
        ],
    },
    {
        "_id": "h2",
        "question": "Is Alpha older than Delta?",
        "answer": "yes",
        "type": "comparison",
        "supporting_facts": [["Alpha", 0], ["Delta", 0]],
        "context": [
            ["Delta", ["Delta is new."]],
            ["Alpha", ["Alpha is a firm.", " It was founded by Bob."]],
        ],
    },
]

IRCOT = [
    {
        "question_id": "i1",
        "question_text": "What position did she hold?",
        "answers_objects": [{"number": "", "spans": ["Chief of Protocol", "protocol chief"]}],
        "contexts": [
            {"id": "0", "title": "A", "paragraph_text": "A  text.", "is_supporting": False},
            {"id": "1", "title": "B", "paragraph_text": "B text.", "is_supporting": True},
            {"id": "2", "title": "C", "paragraph_text": "C text.", "is_supporting": True},
        ],
    }
]

MUSIQUE = [
    {
        "id": "2hop__1_2",
        "question": "What did the actress win?",
        "answer": "a Tony",
        "answer_aliases": ["Tony Award", "", "a Tony"],
        "answerable": True,
        "paragraphs": [
            {"idx": 0, "title": "X", "paragraph_text": "X text.", "is_supporting": False},
            {"idx": 1, "title": "Win", "paragraph_text": "She won.", "is_supporting": True},
            {"idx": 2, "title": "Film", "paragraph_text": "Starring her.", "is_supporting": True},
        ],
        # hop order: the film first, then the award
        "question_decomposition": [
            {"id": 1, "question": "who", "answer": "her", "paragraph_support_idx": 2},
            {"id": 2, "question": "what did #1 win", "answer": "a Tony", "paragraph_support_idx": 1},
        ],
    }
]


def _write_json(path: Path, data: object) -> Path:
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def _write_jsonl(path: Path, rows: list[dict]) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return path


def test_paragraph_key_is_whitespace_insensitive_and_short() -> None:
    key = paragraph_key("Alpha", "Alpha is  a firm.\n")
    assert key == paragraph_key(" Alpha ", "Alpha is a firm.")
    assert key == Paragraph("Alpha", "Alpha is a firm.").key
    assert len(key) == 16 and key != paragraph_key("Alpha", "Alpha is a farm.")


@pytest.mark.parametrize("writer", [_write_json, _write_jsonl])
def test_hotpot_json_and_jsonl(tmp_path: Path, writer) -> None:
    ds = load_dataset(writer(tmp_path / "hp.json", HOTPOT))
    assert (ds.name, ds.fmt, ds.warnings) == ("hp", "hotpot", [])
    first, second = ds.examples
    assert (first.qid, first.answers, first.qtype) == ("h1", ["Bob Smith"], "bridge")
    assert first.paragraphs[0] == Paragraph("Alpha", "Alpha is a firm. It was founded by Bob.")
    # gold in supporting_facts order, deduped
    assert first.gold_titles == ["Beta", "Alpha"]
    assert first.gold_keys == [paragraph_key("Beta", "Bob Smith is Bob."), ds.corpus[0].key]
    # corpus union: Alpha is shared, so 4 unique paragraphs in first-seen order
    assert [p.title for p in ds.corpus] == ["Alpha", "Beta", "Gamma", "Delta"]
    assert second.gold_keys == [ds.corpus[0].key, ds.corpus[3].key]


def test_2wiki_sentences_without_leading_spaces(tmp_path: Path) -> None:
    record = {
        "_id": "w1",
        "type": "compositional",
        "question": "Q?",
        "answer": "A",
        "evidences": [["X", "born in", "Y"]],
        "supporting_facts": [["X", 0]],
        "context": [["X", ["X was born in Y.", "X died in Z."]]],
    }
    ds = load_dataset(_write_json(tmp_path / "wiki.json", [record]))
    assert ds.corpus == [Paragraph("X", "X was born in Y. X died in Z.")]
    assert ds.examples[0].qtype == "compositional"


def test_hotpot_gold_title_missing_from_context_warns(tmp_path: Path) -> None:
    record = dict(HOTPOT[1], supporting_facts=[["Alpha", 0], ["Nowhere", 0]])
    ds = load_dataset(_write_json(tmp_path / "hp.json", [record]))
    assert ds.examples[0].gold_titles == ["Alpha", "Nowhere"]
    assert len(ds.examples[0].gold_keys) == 1
    assert len(ds.warnings) == 1 and "Nowhere" in ds.warnings[0]


def test_ircot_jsonl(tmp_path: Path) -> None:
    ds = load_dataset(_write_jsonl(tmp_path / "dev.ircot.jsonl", IRCOT))
    ex = ds.examples[0]
    assert (ds.name, ds.fmt) == ("dev.ircot", "ircot")
    assert (ex.qid, ex.question) == ("i1", "What position did she hold?")
    assert ex.answers == ["Chief of Protocol", "protocol chief"]
    assert ex.gold_titles == ["B", "C"]
    assert ex.gold_keys == [paragraph_key("B", "B text."), paragraph_key("C", "C text.")]
    assert len(ds.corpus) == 3


@pytest.mark.parametrize("writer", [_write_json, _write_jsonl])
def test_musique_json_and_jsonl(tmp_path: Path, writer) -> None:
    ds = load_dataset(writer(tmp_path / "mq.json", MUSIQUE))
    ex = ds.examples[0]
    assert (ds.fmt, ex.qid, ex.qtype) == ("musique", "2hop__1_2", "2hop")
    assert ex.answers == ["a Tony", "Tony Award"]  # deduped, empty alias dropped
    assert ex.gold_titles == ["Film", "Win"]  # hop order from the decomposition
    assert ex.gold_keys == [paragraph_key("Film", "Starring her."), paragraph_key("Win", "She won.")]


def test_questions_with_corpus_list_and_title_gold(tmp_path: Path) -> None:
    questions = [
        {"id": "t1", "question": "Q1?", "answer": "A1", "aliases": ["a one"], "supporting_facts": ["Alpha", "Beta"]},
        {"id": "t2", "question": "Q2?", "answer": "A2", "supporting_facts": [["Beta", 0], ["Missing", 2]]},
    ]
    corpus = [
        {"id": 0, "title": "Alpha", "text": "Alpha one."},
        {"id": 1, "title": "Alpha", "text": "Alpha two."},  # both Alpha chunks are gold
        {"id": 2, "title": "Beta", "text": "Beta."},
        {"id": 3, "title": "Beta", "text": "Beta."},  # exact duplicate, dropped
        {"idx": 4, "title": "Gamma", "text": "Gamma."},
    ]
    ds = load_dataset(_write_json(tmp_path / "q.json", questions), corpus=_write_jsonl(tmp_path / "c.jsonl", corpus))
    assert ds.fmt == "titles" and len(ds.corpus) == 4
    t1, t2 = ds.examples
    assert t1.answers == ["A1", "a one"] and t1.paragraphs == []
    assert t1.gold_keys == [p.key for p in ds.corpus[:3]]
    assert t2.gold_titles == ["Beta", "Missing"]
    assert t2.gold_keys == [ds.corpus[2].key]
    assert len(ds.warnings) == 1 and "Missing" in ds.warnings[0]


def test_questions_with_title_sentences_dict_corpus(tmp_path: Path) -> None:
    questions = [{"_id": "d1", "question": "Q?", "answer": "A", "supporting_facts": [["Alpha", 0]]}]
    corpus = {"Alpha": ["Alpha is a firm.", " It was founded by Bob."], "Wiki": ["No lead space.", "Second."]}
    ds = load_dataset(_write_json(tmp_path / "q.json", questions), corpus=_write_json(tmp_path / "c.json", corpus))
    assert ds.corpus == [
        Paragraph("Alpha", "Alpha is a firm. It was founded by Bob."),
        Paragraph("Wiki", "No lead space. Second."),
    ]
    assert ds.examples[0].gold_keys == [ds.corpus[0].key]


def test_own_contexts_mapped_onto_given_corpus(tmp_path: Path) -> None:
    corpus = {"Alpha": "Alpha, rewritten in the corpus.", "Beta": ["Bob Smith is Bob."], "Delta": ["Delta is new."]}
    ds = load_dataset(_write_json(tmp_path / "hp.json", HOTPOT), corpus=_write_json(tmp_path / "c.json", corpus))
    assert ds.fmt == "hotpot" and [p.title for p in ds.corpus] == ["Alpha", "Beta", "Delta"]
    # Beta matches by title + text; Alpha's text differs, so it is mapped by title
    assert ds.examples[0].gold_keys == [ds.corpus[1].key, ds.corpus[0].key]
    assert ds.examples[1].gold_keys == [ds.corpus[0].key, ds.corpus[2].key]
    assert len(ds.examples[0].paragraphs) == 3  # own context kept


def test_questions_without_context_need_a_corpus(tmp_path: Path) -> None:
    path = _write_json(tmp_path / "q.json", [{"question": "Q?", "answer": "A"}])
    with pytest.raises(InputError, match="--corpus"):
        load_dataset(path)


def test_limit_keeps_first_examples_and_their_paragraphs(tmp_path: Path) -> None:
    ds = load_dataset(_write_json(tmp_path / "hp.json", HOTPOT), limit=1)
    assert [e.qid for e in ds.examples] == ["h1"]
    assert [p.title for p in ds.corpus] == ["Alpha", "Beta", "Gamma"]


def test_detect_format() -> None:
    assert detect_format(HOTPOT[0]) == "hotpot"
    assert detect_format(IRCOT[0]) == "ircot"
    assert detect_format(MUSIQUE[0]) == "musique"
    assert detect_format({"question": "Q?", "answer": "A"}) == "titles"


def test_unknown_format_names_file_keys_and_formats(tmp_path: Path) -> None:
    path = _write_json(tmp_path / "odd.json", [{"query": "Q?", "label": "A"}])
    with pytest.raises(InputError) as err:
        load_dataset(path)
    message = str(err.value)
    assert "odd.json" in message and "label, query" in message
    assert "HotpotQA" in message and "MuSiQue" in message and "IRCoT" in message


def test_invalid_jsonl_line_reports_line_number(tmp_path: Path) -> None:
    path = tmp_path / "bad.jsonl"
    path.write_text(json.dumps(IRCOT[0]) + "\n\n" + '{"question_text": "Q?", oops}\n')
    with pytest.raises(InputError, match="bad.jsonl: line 3 is not valid JSON"):
        load_dataset(path)


@pytest.mark.parametrize(
    ("content", "match"),
    [
        ("", "empty"),
        ("  \n", "empty"),
        ("[]", "no records"),
        ('[{"question": "Q?",]', "invalid JSON at line 1"),
        ('{"a": 1', "invalid JSON at line 1"),
        ("42", "top-level JSON"),
    ],
)
def test_bad_files(tmp_path: Path, content: str, match: str) -> None:
    path = tmp_path / "f.json"
    path.write_text(content)
    with pytest.raises(InputError, match=match):
        load_dataset(path)


def test_missing_question_and_missing_file(tmp_path: Path) -> None:
    rows = [HOTPOT[0], dict(HOTPOT[1], question="  ")]
    with pytest.raises(InputError, match=r"line 2 has no question"):
        load_dataset(_write_jsonl(tmp_path / "q.jsonl", rows))
    with pytest.raises(InputError, match="not found"):
        load_dataset(tmp_path / "nope.json")


def test_bad_corpus_entries(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="record 1"):
        load_corpus(_write_json(tmp_path / "c.json", [{"title": "A"}]))
    with pytest.raises(InputError, match="no paragraphs"):
        load_corpus(_write_json(tmp_path / "c2.json", {}))


def test_shared_real_data_counts() -> None:
    """The real files in ../shared/data (never committed): counts from its README."""
    if not SHARED_DATA.is_dir():
        pytest.skip(f"shared data not found at {SHARED_DATA}")
    dev = load_dataset(SHARED_DATA / "hotpotqa" / "dev500.ircot.jsonl")
    assert (dev.fmt, len(dev.examples), len(dev.corpus)) == ("ircot", 500, 4858)
    assert all(len(ex.gold_keys) == 2 for ex in dev.examples) and not dev.warnings
    musique = load_dataset(SHARED_DATA / "musique" / "dev100.musique.json")
    assert (musique.fmt, len(musique.examples)) == ("musique", 100)
    assert sum(len(ex.gold_keys) for ex in musique.examples) == 260
    hotpot = load_dataset(
        SHARED_DATA / "hotpotqa" / "train100.hotpot.json", corpus=SHARED_DATA / "hotpotqa" / "train100.corpus.json"
    )
    assert (len(hotpot.examples), len(hotpot.corpus), hotpot.warnings) == (100, 994, [])
    assert all(len(ex.gold_keys) == 2 for ex in hotpot.examples)
