"""Loaders for multi-hop QA datasets, with the format detected from the first record.

Users bring the official files unchanged (raw HotpotQA / 2WikiMultihopQA JSON, IRCoT JSONL,
MuSiQue JSON/JSONL, or questions plus a separate corpus), so ``drrag eval`` needs no
``--format`` flag: the keys of the first record say which schema it is. Every format is
turned into the same :class:`Dataset` so the eval runner treats them all alike (SPEC §7):
the corpus is the union of all questions' paragraphs, deduplicated by title + text.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from drrag_cli.errors import InputError
from drrag_cli.types import Dataset, Paragraph, QAExample, normalise_ws, paragraph_key

__all__ = ["FORMATS", "Dataset", "Paragraph", "QAExample", "detect_format", "load_corpus", "load_dataset",
           "paragraph_key"]

FORMATS: dict[str, str] = {
    "hotpot": "raw HotpotQA / 2WikiMultihopQA (_id, question, answer, supporting_facts, context)",
    "ircot": "IRCoT JSONL (question_id, question_text, answers_objects, contexts)",
    "musique": "MuSiQue (id, question, answer, answer_aliases, paragraphs)",
    "titles": "questions (question, answer, supporting_facts) with a separate --corpus",
}


def _read_text(path: Path) -> str:
    if not path.is_file():
        raise InputError(f"{path}: file not found; check the path")
    try:
        text = path.read_text(encoding="utf-8-sig")
    except UnicodeDecodeError as err:
        raise InputError(f"{path}: not UTF-8 text ({err.reason}); save it as UTF-8") from None
    if not text.strip():
        raise InputError(f"{path}: file is empty; expected a JSON list or JSONL records")
    return text


def _load_json(path: Path) -> list[tuple[str, Any]] | dict[str, Any]:
    """Parse a JSON list, a JSON object, or JSONL; list items come with their location.

    A whole-file parse is tried first; if it fails but the first line is a complete JSON
    value, the file is JSONL and a bad line is reported by its own line number.
    """
    text = _read_text(path)
    try:
        data = json.loads(text)
    except json.JSONDecodeError as err:
        lines = text.splitlines()
        first = next(line for line in lines if line.strip())
        try:
            json.loads(first)
        except json.JSONDecodeError:
            raise InputError(
                f"{path}: invalid JSON at line {err.lineno}, column {err.colno}: {err.msg}; "
                "fix the file (expected a JSON list or one JSON object per line)"
            ) from None
        return _load_jsonl(path, lines)
    if isinstance(data, list):
        return [(f"record {i}", item) for i, item in enumerate(data, 1)]
    if isinstance(data, dict):
        return data
    raise InputError(f"{path}: top-level JSON is a {type(data).__name__}; expected a list of records or JSONL")


def _load_jsonl(path: Path, lines: list[str]) -> list[tuple[str, Any]]:
    items: list[tuple[str, Any]] = []
    for n, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            items.append((f"line {n}", json.loads(line)))
        except json.JSONDecodeError as err:
            raise InputError(
                f"{path}: line {n} is not valid JSON ({err.msg}, column {err.colno}); "
                "each JSONL line must be one complete JSON object"
            ) from None
    return items


def _join_sentences(sentences: Any) -> str:
    """Join a paragraph's sentences the way its source split them.

    HotpotQA sentences keep their leading spaces, so plain concatenation restores the
    text; 2WikiMultihopQA strips them, so those paragraphs are joined with a space.
    """
    if isinstance(sentences, str):
        return sentences.strip()
    parts = [str(s) for s in sentences]
    spaced = any(p[:1].isspace() for p in parts[1:])
    return ("" if spaced else " ").join(parts).strip()


def _strings(value: Any) -> list[str]:
    """Flatten an answer field (string, number or list) into stripped, non-empty strings."""
    if value is None or isinstance(value, bool):
        return []
    if isinstance(value, str | int | float):
        text = str(value).strip()
        return [text] if text else []
    if isinstance(value, list | tuple):
        return [s for v in value for s in _strings(v)]
    return []


def _dedup(values: list[str]) -> list[str]:
    return list(dict.fromkeys(values))


def _unique(paragraphs: list[Paragraph]) -> list[Paragraph]:
    """Drop repeated paragraphs (same key), keeping the first of each in order."""
    seen: dict[str, Paragraph] = {}
    for p in paragraphs:
        seen.setdefault(p.key, p)
    return list(seen.values())


def _example(
    rec: dict[str, Any],
    path: Path,
    where: str,
    paragraphs: list[Paragraph],
    gold: list[Paragraph],
    titles: list[str],
    qtype: str = "",
) -> Parsed:
    """Build one example from the fields every format shares (id, question, answers)."""
    question = rec.get("question", rec.get("question_text"))
    if not isinstance(question, str) or not question.strip():
        raise InputError(
            f"{path}: {where} has no question; every record needs a non-empty 'question' (or 'question_text') string"
        )
    qid = next(
        (str(rec[k]) for k in ("_id", "id", "question_id", "qid") if rec.get(k) not in (None, "")),
        where.replace(" ", "-"),
    )
    # IRCoT keeps answers in answers_objects[].spans; the others in answer (+ aliases).
    answers = [
        s
        for obj in rec.get("answers_objects") or []
        if isinstance(obj, dict)
        for s in _strings(obj.get("spans")) or _strings(obj.get("number"))
    ]
    for k in ("answer", "answers", "answer_aliases", "aliases"):
        answers += _strings(rec.get(k))
    titles = titles or _dedup([p.title for p in gold])
    ex = QAExample(
        qid, question.strip(), _dedup(answers), _unique(paragraphs), [], titles, str(rec.get("type") or qtype)
    )
    return ex, gold, titles


def _gold_titles(sf: Any) -> list[str]:
    """Titles from supporting_facts given as titles, [title, idx] pairs, or HF columns."""
    if isinstance(sf, dict):  # Hugging Face layout: {"title": [...], "sent_id": [...]}
        sf = sf.get("title", [])
    titles = [(f[0] if isinstance(f, list | tuple) and f else f) for f in sf or []]
    return _dedup([str(t) for t in titles if isinstance(t, str | int) and str(t).strip()])


def _dict_paragraph(item: Any, path: Path, where: str) -> Paragraph:
    text = item.get("paragraph_text", item.get("text")) if isinstance(item, dict) else None
    if isinstance(item, dict) and text is None and "sentences" in item:
        text = _join_sentences(item["sentences"])
    if not isinstance(text, str):
        raise InputError(
            f"{path}: {where}: a paragraph is not an object with a 'text' (or "
            "'paragraph_text') string; give each one {title, text}"
        )
    return Paragraph(str(item.get("title") or "").strip(), text.strip())


# Each parser returns the example (gold_keys still empty), its gold paragraphs as given in
# the record, and its gold titles; gold keys are resolved afterwards so that a separate
# corpus is mapped onto them the same way for every format.
Parsed = tuple[QAExample, list[Paragraph], list[str]]


def _parse_hotpot(rec: dict[str, Any], path: Path, where: str) -> Parsed:
    ctx = rec.get("context") or []
    if isinstance(ctx, dict):  # Hugging Face layout: {"title": [...], "sentences": [...]}
        ctx = list(zip(ctx.get("title", []), ctx.get("sentences", []), strict=False))
    if not all(isinstance(e, list | tuple) and len(e) == 2 for e in ctx):
        raise InputError(f"{path}: {where}: each 'context' entry must be [title, [sentences]]")
    paragraphs = [Paragraph(str(t).strip(), _join_sentences(s)) for t, s in ctx]
    titles = _gold_titles(rec.get("supporting_facts"))
    gold = [p for t in titles for p in paragraphs if p.title == t]
    return _example(rec, path, where, paragraphs, gold, titles)


def _parse_ircot(rec: dict[str, Any], path: Path, where: str) -> Parsed:
    items = rec.get("contexts") or []
    paragraphs = [_dict_paragraph(item, path, where) for item in items]
    gold = [p for p, item in zip(paragraphs, items, strict=True) if item.get("is_supporting")]
    return _example(rec, path, where, paragraphs, gold, [])


def _parse_musique(rec: dict[str, Any], path: Path, where: str) -> Parsed:
    items = rec.get("paragraphs") or []
    paragraphs = [_dict_paragraph(item, path, where) for item in items]
    by_idx = {item.get("idx", i): i for i, item in enumerate(items)}
    # Gold in hop order (the decomposition's support paragraphs), then any other flagged.
    order = [
        by_idx.get(step.get("paragraph_support_idx"))
        for step in rec.get("question_decomposition") or []
        if isinstance(step, dict)
    ]
    order += list(range(len(items)))
    gold = [paragraphs[i] for i in dict.fromkeys(order) if i is not None and items[i].get("is_supporting")]
    prefix = str(rec.get("id", "")).split("__", 1)[0]  # '2hop', '3hop1', ... in MuSiQue ids
    return _example(rec, path, where, paragraphs, gold, [], prefix if "hop" in prefix else "")


def _parse_titles(rec: dict[str, Any], path: Path, where: str) -> Parsed:
    return _example(rec, path, where, [], [], _gold_titles(rec.get("supporting_facts")))


_PARSERS = {"hotpot": _parse_hotpot, "ircot": _parse_ircot, "musique": _parse_musique, "titles": _parse_titles}


def detect_format(record: dict) -> str:
    """Name the schema of one record ('hotpot', 'ircot', 'musique', 'titles').

    Raises InputError listing the supported formats when the keys fit none of them.
    """
    if not isinstance(record, dict):
        raise InputError(f"record is not a JSON object (got {type(record).__name__})")
    if "question_text" in record or "contexts" in record:
        return "ircot"
    if "question" in record:
        if "paragraphs" in record:
            return "musique"
        if "context" in record:
            return "hotpot"
        return "titles"
    supported = "; ".join(FORMATS.values())
    raise InputError(f"unknown dataset format (keys: {', '.join(sorted(record)) or 'none'}); supported: {supported}")


def load_corpus(path: str | Path) -> list[Paragraph]:
    """Read a corpus: a JSON/JSONL list of {title, text} or a {title: [sentences]} dict."""
    path = Path(path)
    data = _load_json(path)
    if isinstance(data, dict) and not isinstance(data.get("text"), str):
        paragraphs = []
        for title, body in data.items():
            if not isinstance(body, str | list):
                raise InputError(f"{path}: entry {title!r} must be a text or a list of sentences")
            paragraphs.append(Paragraph(str(title).strip(), _join_sentences(body)))
    else:
        items = [("record 1", data)] if isinstance(data, dict) else data
        paragraphs = [_dict_paragraph(item, path, where) for where, item in items]
    unique = _unique(paragraphs)
    if not unique:
        raise InputError(f"{path}: the corpus has no paragraphs; give at least one {{title, text}}")
    return unique


def load_dataset(path: str | Path, corpus: str | Path | None = None, limit: int | None = None) -> Dataset:
    """Load questions (any supported format) and build the corpus they are asked against.

    Without ``corpus`` the corpus is the union of the questions' own paragraphs (first
    seen order, deduplicated by key). With it, that file is the corpus and each gold
    paragraph is mapped onto it by title + text, else by title; gold titles found in
    neither are skipped and reported in ``Dataset.warnings``.
    """
    path = Path(path)
    data = _load_json(path)
    if isinstance(data, dict):
        data = (
            [(f"record {i}", r) for i, r in enumerate(data["data"], 1)]
            if isinstance(data.get("data"), list)
            else [("record 1", data)]
        )
    if not data:
        raise InputError(f"{path}: no records; expected a JSON list or JSONL of questions")
    if limit is not None:
        if limit < 1:
            raise InputError(f"limit must be at least 1, got {limit}")
        data = data[:limit]
    try:
        fmt = detect_format(data[0][1])
    except InputError as err:
        raise InputError(f"{path}: {data[0][0]}: {err}") from None
    given = load_corpus(corpus) if corpus is not None else None
    if fmt == "titles" and given is None:
        raise InputError(f"{path}: the questions carry no context paragraphs; give their corpus (drrag eval --corpus)")
    parsed = []
    for where, rec in data:
        if not isinstance(rec, dict):
            raise InputError(f"{path}: {where} is not a JSON object (got {type(rec).__name__})")
        parsed.append(_PARSERS[fmt](rec, path, where))
    if given is None:
        paragraphs = _unique([p for ex, _, _ in parsed for p in ex.paragraphs])
    else:
        paragraphs = given
    dataset = Dataset(path.stem, fmt, [ex for ex, _, _ in parsed], paragraphs)
    _resolve_gold(dataset, parsed, given)
    return dataset


def _resolve_gold(dataset: Dataset, parsed: list[Parsed], given: list[Paragraph] | None) -> None:
    """Fill each example's gold_keys; record gold titles that match nothing as warnings."""
    keys = {p.key for p in given} if given is not None else set()
    by_title: dict[str, list[str]] = {}
    for p in given or []:
        by_title.setdefault(normalise_ws(p.title), []).append(p.key)
    for ex, gold, titles in parsed:
        found = [
            k
            for p in gold
            for k in ([p.key] if given is None or p.key in keys else by_title.get(normalise_ws(p.title), []))
        ]
        covered = {p.title for p in gold if given is None or by_title.get(normalise_ws(p.title))}
        for title in titles:
            if title not in covered and by_title.get(normalise_ws(title)):
                found += by_title[normalise_ws(title)]
            elif title not in covered:
                where = "the corpus" if given is not None else "its context"
                dataset.warnings.append(f"{ex.qid}: gold title {title!r} not in {where}; skipped")
        ex.gold_keys = _dedup(found)
