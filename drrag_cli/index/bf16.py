"""A large index run embedded in bfloat16, on CPUs that compute it.

On a CPU with AMX-BF16 (Intel Xeon since Sapphire Rapids) or AVX-512 BF16 (AMD Zen 4 and
later, Intel Cooper Lake), MiniLM's matrix products in bfloat16 (torch's autocast; softmax,
layer norms and pooling stay float32) embed the HotpotQA dev500 passages 2.7x (AMX) and 1.4x
(AVX-512 BF16 on a Zen 5) as fast as the ONNX export in float32, with vectors whose cosine to
float32's is ≥ 0.9999 (``python benchmarks/bf16_embed.py``; an int8 export reaches only 0.989
and loses recall: docs/SCALING.md). Elsewhere bfloat16 is emulated and slower, so it runs only
where /proc/cpuinfo says ``amx_bf16`` or ``avx512_bf16``.

The encoder is BERT's as the papers give it (embeddings, then per layer self-attention and a
GELU feed-forward, each added back and layer-normed) over the model's own safetensors, fed by
the ONNX export's tokenizer, batching and pooling (:meth:`.onnx_run.OnnxModel.encode`): torch
alone imports in 1–2 s, where sentence-transformers and transformers take ~9 s. A run embeds
in bfloat16 only with at least :data:`MIN_TEXTS` passages to embed (a first build, a large
folder added); an edit stays on the export, which never imports torch. Each such run first
checks it on the export's probes: a cosine under :data:`COSINE_MIN` to the export's vectors
(a model that is no plain BERT, a damaged file), and the run embeds as before.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from drrag_cli.cpu import has_flag
from drrag_cli.index.onnx_run import PROBES  # no heavy import: onnxruntime and numpy load inside its methods

if TYPE_CHECKING:
    import numpy as np

    from drrag_cli.index.onnx_run import OnnxModel

MIN_TEXTS = 2000  # torch's import pays off after ~200 passages; below this, runs stay torch-free and small
COSINE_MIN = 0.9999
WIDTH_STEP = 32  # widths padded to a multiple: torch keeps kernels per shape (3,000 passages: 1,190 -> 689 MB)
BATCH = 32  # texts per forward pass (benchmarks/bf16_embed.py: 16, 32 and 64 within the machine's noise)


def supported() -> bool:
    """Whether this CPU computes bfloat16 products in hardware: AMX-BF16's matrix unit, or
    AVX-512 BF16's dot products (two bfloat16 products per float32 lane of one instruction)."""
    return has_flag("amx_bf16") or has_flag("avx512_bf16")


def encoder(model_dir: str, export: OnnxModel | None, threads: int) -> Callable[[Sequence[str]], np.ndarray] | None:
    """A function embedding texts (normalised float32 rows) in bfloat16, or None: no bfloat16 in the CPU,
    no verified export to tokenize with and check against, a model that is not a BERT stored
    as ``model.safetensors``, or vectors that stray from the export's."""
    if not supported() or export is None:
        return None
    forward = _bert(Path(model_dir), threads)
    if forward is None:
        return None

    def encode(texts: Sequence[str]) -> np.ndarray:
        return export.encode(texts, batch_size=BATCH, forward=forward)

    try:
        agree = (encode(PROBES) * export.encode(PROBES, threads=threads)).sum(axis=1)
    except Exception:  # noqa: BLE001 - weights of another shape than the config says: the export embeds
        return None
    return encode if bool((agree >= COSINE_MIN).all()) else None


def _bert(folder: Path, threads: int) -> Callable[[dict[str, np.ndarray]], np.ndarray] | None:
    """The last hidden state of ``folder``'s BERT for a batch of inputs by name, in bfloat16."""
    try:
        config = json.loads((folder / "config.json").read_text(encoding="utf-8"))
        if config.get("model_type") != "bert" or config.get("position_embedding_type", "absolute") != "absolute":
            return None
        import torch
        from safetensors.torch import load_file

        weights = {k.removeprefix("bert."): v.float() for k, v in load_file(folder / "model.safetensors").items()}
    except Exception:  # noqa: BLE001 - a damaged file raises many types; the export embeds instead
        return None
    torch.set_num_threads(threads)

    def forward(feed: dict[str, np.ndarray]) -> np.ndarray:
        import numpy as np

        width = feed["input_ids"].shape[1]
        pad = min(-width % WIDTH_STEP, int(config["max_position_embeddings"]) - width)
        padded = {n: np.pad(a, ((0, 0), (0, max(pad, 0)))) for n, a in feed.items()}  # mask 0: ignored
        inputs = {n: torch.from_numpy(a) for n, a in padded.items()}
        ids, mask, types = inputs["input_ids"], inputs["attention_mask"], inputs.get("token_type_ids")
        with torch.inference_mode(), torch.autocast("cpu", dtype=torch.bfloat16):
            hidden = _encoder(config, weights, ids, mask, types)
        return hidden[:, :width].float().numpy()

    return forward


def _encoder(config: dict[str, Any], w: dict[str, Any], ids: Any, mask: Any, token_types: Any = None) -> Any:  # noqa: ANN401
    import torch
    import torch.nn.functional as F  # noqa: N812

    eps, heads = float(config["layer_norm_eps"]), int(config["num_attention_heads"])
    types = torch.zeros_like(ids) if token_types is None else token_types
    x = (w["embeddings.word_embeddings.weight"][ids] + w["embeddings.token_type_embeddings.weight"][types]
         + w["embeddings.position_embeddings.weight"][: ids.shape[1]])  # fmt: skip
    x = F.layer_norm(x, x.shape[-1:], w["embeddings.LayerNorm.weight"], w["embeddings.LayerNorm.bias"], eps)
    rows, width, dim = x.shape
    keep = mask[:, None, None, :].bool()
    for i in range(int(config["num_hidden_layers"])):
        p = f"encoder.layer.{i}."

        def dense(h: Any, name: str, p: str = p) -> Any:  # noqa: ANN401
            return F.linear(h, w[f"{p}{name}.weight"], w[f"{p}{name}.bias"])

        def norm(h: Any, name: str, p: str = p) -> Any:  # noqa: ANN401
            return F.layer_norm(h, (dim,), w[f"{p}{name}.LayerNorm.weight"], w[f"{p}{name}.LayerNorm.bias"], eps)

        q, k, v = (dense(x, f"attention.self.{n}").view(rows, width, heads, -1).transpose(1, 2)
                   for n in ("query", "key", "value"))  # fmt: skip
        attended = F.scaled_dot_product_attention(q, k, v, attn_mask=keep).transpose(1, 2).reshape(rows, width, dim)
        x = norm(x + dense(attended, "attention.output.dense"), "attention.output")
        x = norm(x + dense(F.gelu(dense(x, "intermediate.dense")), "output.dense"), "output")
    return x
