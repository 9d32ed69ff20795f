"""The ONNX export at run time: onnxruntime + tokenizers + numpy, never torch.

What sentence-transformers does for a Transformer → mean/CLS Pooling → Normalize model: the
same tokenizer and truncation, pooling over the attention mask, L2 normalisation. The export
itself, and its check against torch, are :mod:`drrag_cli.index.onnx_embed`.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from collections.abc import Callable

    import numpy as np

    Forward = Callable[[dict[str, np.ndarray]], np.ndarray]

COSINE_MIN = 0.9999  # every probe's ONNX vector against its torch vector
TOKEN_BUDGET = 2048  # padded tokens per onnxruntime run (_batches)
PADDED_AT_MOST = 0.5  # a text shares a run only with texts at most twice as long (_batches)
PROBES = (
    "Who led Project Heron?",
    "  In which city was the lead engineer of Project Heron born?  ",
    "a",
    "Die Hauptstadt von Frankreich ist Paris, und sie liegt an der Seine.",
    "東京は日本の首都であり、世界最大の都市圏の一つです。",
    "Ελληνικά: η Αθήνα είναι η πρωτεύουσα της Ελλάδας.",
    "Project Heron\nThe project began in 2019 under Ada Lovelace-Smith, who had moved from Lyon. " * 30,
    " ".join(f"word{i} and the river{i % 7}" for i in range(300)),
)


class OnnxModel:
    """An export run with onnxruntime + tokenizers: one session per thread count."""

    def __init__(self, folder: Path, meta: dict[str, Any]) -> None:
        from tokenizers import Tokenizer

        self.folder = folder
        self.meta = meta
        self.dim = int(meta["dim"])
        self.tokenizer = Tokenizer.from_file(str(folder / "tokenizer.json"))
        self.tokenizer.no_padding()
        self.tokenizer.enable_truncation(max_length=int(meta["max_seq_length"]))
        self._sessions: dict[int, Any] = {}

    def session(self, threads: int) -> Any:  # noqa: ANN401
        if threads not in self._sessions:
            import onnxruntime as ort

            opts = ort.SessionOptions()
            opts.intra_op_num_threads = threads
            opts.inter_op_num_threads = 1
            opts.execution_mode = ort.ExecutionMode.ORT_SEQUENTIAL
            opts.log_severity_level = 3
            # Threads sleep instead of spinning between runs. Measured on 2 cores, one dev500 question:
            # 1 thread p50 7.6 ms; 2 spinning 3.7 ms idle but 10.2 ms beside one busy process; 2 not
            # spinning 5.4 / 6.4 ms. So queries use every core, and a busy machine is not starved.
            opts.add_session_config_entry("session.intra_op.allow_spinning", "0")
            if self.meta.get("graph") == "bert-fused":  # fused offline (_fuse): onnxruntime's own pass
                opts.graph_optimization_level = ort.GraphOptimizationLevel.ORT_DISABLE_ALL  # costs 0.05-0.18 s
            self._sessions[threads] = ort.InferenceSession(
                str(self.folder / "model.onnx"), opts, providers=["CPUExecutionProvider"]
            )
        return self._sessions[threads]

    def encode(
        self, texts: Sequence[str], batch_size: int = 32, threads: int = 1, forward: Forward | None = None
    ) -> np.ndarray:
        """Normalised vectors of ``texts``; ``forward`` (the inputs by name → the last hidden
        state) runs the model instead of the onnxruntime session (:mod:`.bf16`)."""
        import numpy as np

        if self.meta.get("do_lower_case"):
            texts = [t.lower() for t in texts]
        encs = self.tokenizer.encode_batch(list(texts))
        lengths = [len(e.ids) for e in encs]
        order = sorted(range(len(encs)), key=lambda i: -lengths[i])  # like sentence-transformers
        out = np.zeros((len(encs), self.dim), dtype=np.float32)
        if forward is None:
            sess = self.session(threads)

            def forward(feed: dict[str, np.ndarray]) -> np.ndarray:
                return sess.run(["last_hidden_state"], feed)[0]

        names = self.meta["input_names"]
        for idx in _batches(order, lengths, batch_size):
            width = lengths[idx[0]]  # the longest: order is longest first
            feed = {n: np.zeros((len(idx), width), dtype=np.int64) for n in names}
            feed["input_ids"].fill(int(self.meta["pad_id"]))
            for row, i in enumerate(idx):
                e, n = encs[i], lengths[i]
                feed["input_ids"][row, :n] = e.ids
                feed["attention_mask"][row, :n] = e.attention_mask
                if "token_type_ids" in feed:
                    feed["token_type_ids"][row, :n] = e.type_ids
            hidden = forward(feed)
            out[idx] = _pool(hidden, feed["attention_mask"], self.meta["pooling"])
        return out

    def self_check(self, threads: int = 1) -> bool:
        """Probe 0 through the ``threads`` session against the vector recorded at
        verification: a corrupt or swapped file fails here and the caller falls back to torch."""
        import numpy as np

        want = np.asarray(self.meta.get("probe0") or [], dtype=np.float32)
        if want.shape != (self.dim,):
            return False
        got = self.encode([PROBES[0]], threads=threads)[0]
        return bool(float(got @ want) >= COSINE_MIN)


def _batches(order: list[int], lengths: list[int], rows: int) -> list[list[int]]:
    """Longest-first batches of at most ``rows`` texts and ``TOKEN_BUDGET`` padded tokens, each
    text at least :data:`PADDED_AT_MOST` of its batch's longest. On 2 cores, 8 texts of 256
    tokens per run embed faster than 32 (the dev500 texts: 65 vs 61/s at best,
    docs/BENCHMARKS.md; ``benchmarks/onnx_batches.py``); and a query's q* texts of 246 and 99
    tokens take 85 ms padded into one run against 54 ms in two."""
    out: list[list[int]] = []
    for i in order:
        batch = out[-1] if out else []
        width = lengths[batch[0]] if batch else 0
        room = len(batch) < rows and (len(batch) + 1) * width <= TOKEN_BUDGET
        if batch and room and lengths[i] >= width * PADDED_AT_MOST:
            batch.append(i)
        else:
            out.append([i])
    return out


def _pool(hidden: np.ndarray, mask: np.ndarray, mode: str) -> np.ndarray:
    import numpy as np

    if mode == "cls":
        vec = hidden[:, 0, :]
    else:
        m = mask[:, :, None].astype(hidden.dtype)
        vec = (hidden * m).sum(axis=1) / np.clip(m.sum(axis=1), 1e-9, None)
    norm = np.linalg.norm(vec, axis=1, keepdims=True)
    return (vec / np.clip(norm, 1e-12, None)).astype(np.float32)
