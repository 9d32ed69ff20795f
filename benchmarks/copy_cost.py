"""What holding a free answer to the fed text costs (llm/sampling.SpanOnly), in-process.

Builds the processor over the first 1,500 characters of five sample-corpus profiles (as
the answer prompt shows them) and times it (median of 10), then one logits step over the
real vocabulary (median of 20). The answer's own model call is not included.

    python benchmarks/copy_cost.py
"""

from __future__ import annotations

import statistics
import time
from pathlib import Path

import numpy as np

from drrag_cli.config import Settings
from drrag_cli.llm.llm import LocalLLM
from drrag_cli.llm.sampling import SpanOnly, end_tokens
from drrag_cli.text.fence import document_lines

REPO = Path(__file__).resolve().parents[1]


def main() -> None:
    llm = LocalLLM(Settings().llm)
    model = llm.model
    paths = sorted((REPO / "sample_corpus" / "people").glob("*.md"))[:5]
    lines = document_lines([(p.stem, p.read_text(encoding="utf-8")[:1500]) for p in paths])
    ends = end_tokens(llm._tokens, model.token_eos())

    def text_of(token: int) -> str:
        return model.detokenize([token]).decode("utf-8", "replace")

    build = []
    for _ in range(10):
        t0 = time.perf_counter()
        copy = SpanOnly.of(lines, llm._tokens, text_of, ends, 0)
        build.append(time.perf_counter() - t0)
    scores = np.random.default_rng(0).random(model.n_vocab(), dtype=np.float32)
    steps = []
    for i in range(20):
        t0 = time.perf_counter()
        copy(copy.flat[:i].clip(0), scores.copy())
        steps.append(time.perf_counter() - t0)
    print(f"fed lines {len(lines)}, tokens {len(copy.flat)}; build p50 {statistics.median(build) * 1000:.1f} ms; "
          f"step p50 {statistics.median(steps) * 1000:.3f} ms")


if __name__ == "__main__":
    main()
