"""Chinese and Japanese notes are found by BM25 (character bigrams), and English search in
mixed documents works as before: a real index over a small multilingual corpus."""

from __future__ import annotations

from pathlib import Path

import pytest

from drrag_cli.config import Settings
from drrag_cli.index.api import Index
from drrag_cli.index.bm25 import cjk_bigrams, query_terms

NOTES = {
    "zh-heron.md": "# 鹭项目\n\n鹭项目的首席工程师是林德奎斯特。他出生在乌普萨拉，后来搬到了斯德哥尔摩。\n",
    "zh-tea.md": "# 茶园笔记\n\n这个茶园位于杭州西湖附近，主要种植龙井茶，每年春天采摘。\n",
    "ja-backup.md": "# バックアップ手順\n\n毎週金曜日にサーバーのバックアップを取ります。"
    "復元テストは月に一度行います。\n",
    "ja-cafe.md": "# 喫茶店\n\n京都の古い喫茶店で、毎朝コーヒーと抹茶のケーキを出しています。\n",
    "de-umzug.md": "# Umzug\n\nDer Umzug des Rechenzentrums nach Leipzig ist für März geplant.\n",
    "mixed.md": "# Storage engine 存储引擎\n\nThe storage engine uses a log-structured merge tree. "
    "存储引擎使用日志结构合并树，写入速度很快。\n",
    "en-budget.md": "# Budget\n\nThe Heron budget for 2024 was approved in January by the steering group.\n",
}


@pytest.fixture(scope="module")
def index(tmp_path_factory: pytest.TempPathFactory) -> Index:
    root = tmp_path_factory.mktemp("cjk")
    corpus = root / "corpus"
    corpus.mkdir()
    for name, text in NOTES.items():
        (corpus / name).write_text(text, encoding="utf-8")
    settings = Settings().replace({"index.path": str(root / "ix")})
    Index.build([corpus], settings)
    return Index.open(settings)


def top_sources(index: Index, query: str, k: int = 3) -> list[str]:
    return [Path(hit.passage.source).name for hit in index.search(query, "bm25", k)]


def test_bigrams_only_touch_cjk_runs() -> None:
    assert cjk_bigrams("Heron lead") == "Heron lead"
    assert cjk_bigrams("東京都 in Japan").split() == ["東京", "京都", "in", "Japan"]
    assert query_terms("首都？") == ["首都"]
    assert query_terms("猫") == ["猫"]  # a run of one character is its own term


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("鹭项目的首席工程师出生在哪里？", "zh-heron.md"),
        ("龙井茶在哪里种植", "zh-tea.md"),
        ("バックアップは何曜日ですか", "ja-backup.md"),
        ("京都の喫茶店", "ja-cafe.md"),
        ("存储引擎", "mixed.md"),
        ("Wann ist der Umzug nach Leipzig?", "de-umzug.md"),
    ],
)
def test_a_query_finds_its_own_language_note_in_the_top_3(index: Index, query: str, expected: str) -> None:
    assert expected in top_sources(index, query)


def test_english_still_works_in_mixed_and_english_notes(index: Index) -> None:
    assert top_sources(index, "log-structured merge tree", 1) == ["mixed.md"]
    assert top_sources(index, "budget approved", 1) == ["en-budget.md"]
