"""The corpus-language check of `drrag doctor`: passages labelled by script and function
words, the model's languages read off its real vocabulary, and the warning on a real index
of the Chinese/Japanese/German fixture corpus (and none on an English one)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from drrag_cli.config import Settings
from drrag_cli.doctor import DoctorReport, DoctorWarning, corpus_language
from drrag_cli.index.api import Index
from drrag_cli.index.embedder import DEFAULT_MODEL, resolve_model
from drrag_cli.ingest.language import (
    corpus_languages,
    language_warning,
    model_languages,
    passage_language,
)
from tests.conftest import write_corpus
from tests.index.test_cjk import NOTES


@pytest.mark.parametrize(
    ("text", "lang"),
    [
        ("鹭项目的首席工程师是林德奎斯特。他出生在乌普萨拉。", "zh"),
        ("毎週金曜日にサーバーのバックアップを取ります。", "ja"),
        ("서울은 한국의 수도입니다.", "ko"),
        ("Der Umzug des Rechenzentrums nach Leipzig ist für März geplant und wird teuer.", "de"),
        ("Les données sont stockées dans la base avec une copie pour la sauvegarde.", "fr"),
        ("The budget for the Heron project was approved by the steering group.", "en"),
        ("Москва — столица России.", "cyrillic"),
        # mostly English with a Chinese phrase: the English words win
        ("The storage engine uses a log-structured merge tree for the writes. 存储引擎", "en"),
        ("Heron Kestrel Osprey", None),  # names only: no evidence
        ("", None),
    ],
)
def test_passage_language(text: str, lang: str | None) -> None:
    assert passage_language(text) == lang


def test_the_shipped_model_reads_only_english() -> None:
    model = model_languages(resolve_model(DEFAULT_MODEL)[1])
    assert model.vocab_size == 30522 and model.cjk_entries < 2000
    assert model.languages() == ["en"] and model.english_only


def test_a_multilingual_vocabulary_reads_the_fixture_languages(tmp_path: Path) -> None:
    """A SentencePiece (Unigram) tokenizer.json as XLM-R-based models ship it: ▁-marked
    pieces with scores. Pure logic on a made-up vocabulary (no multilingual model here)."""
    words = "the and of to that with for are this from which have has been were would their they"
    words += " und nicht sich ist wird sind werden auch auf für über oder wurde eine einen dem nach bei"
    pieces = [[f"\u2581{w}", -5.0] for w in words.split()]
    pieces += [[chr(0x4E00 + i), -9.0] for i in range(2500)] + [["バ", -9.0]]
    (tmp_path / "tokenizer.json").write_text(json.dumps({"model": {"type": "Unigram", "vocab": pieces}}))
    model = model_languages(tmp_path)
    assert {"en", "de", "zh", "ja"} <= set(model.languages()) and not model.english_only
    corpus = corpus_languages(NOTES.values())
    assert language_warning(corpus, model, "a-multilingual-model") is None


def _index(root: Path, files: dict[str, str] | None) -> Settings:
    corpus = root / "corpus"
    if files is None:
        write_corpus(corpus)
    else:
        corpus.mkdir(parents=True)
        for name, text in files.items():
            (corpus / name).write_text(text, encoding="utf-8")
    settings = Settings().replace({"index.path": str(root / "ix")})
    Index.build([corpus], settings)
    return settings


def test_doctor_warns_on_the_cjk_fixture_with_an_english_model(tmp_path: Path) -> None:
    settings = _index(tmp_path, NOTES)
    with pytest.raises(DoctorWarning) as caught:
        corpus_language(settings)
    line = str(caught.value)
    assert "\n" not in line
    assert "zh 2" in line and "ja 2" in line and "de 1" in line and "all-MiniLM-L6-v2" in line
    assert "embedding.model" in line and "--rebuild" in line  # says what to do
    report = DoctorReport()
    report.check("corpus language", lambda: corpus_language(settings))
    (check,) = report.checks
    assert check.ok and check.warn and report.ok  # advice, not a failure: doctor still exits 0


def test_no_warning_on_an_english_corpus(tmp_path: Path) -> None:
    detail = corpus_language(_index(tmp_path, None))
    assert detail.startswith("en ") and "reads en" in detail


def test_doctor_warns_when_the_classifier_was_trained_on_another_embedding_model(tmp_path: Path) -> None:
    """CFS's classifier multiplies embedding dimensions: a same-size model of another
    space (a multilingual 384-d MiniLM) would pass unnoticed, so the doctor says so."""
    import shutil

    from drrag_cli.doctor import _classifier
    from drrag_cli.select.classifier import model_paths

    npz, meta = model_paths(None)
    shutil.copy(npz, tmp_path / npz.name)
    data = json.loads(meta.read_text())
    assert ", threshold " in _classifier(Settings())  # shipped weights, shipped model: fine
    (tmp_path / meta.name).write_text(json.dumps({**data, "embedding_model": "someone/multilingual-384"}))
    with pytest.raises(DoctorWarning, match="trained on someone/multilingual-384 .*retrieval.strategy: qdc"):
        _classifier(Settings().replace({"classifier.path": str(tmp_path)}))
