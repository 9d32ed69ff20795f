"""llama.cpp prompt evaluation speed (tokens/s) of a GGUF on this machine, by batch and threads.

The answer's time on a CPU is mostly the prompt's evaluation: this isolates it. Each
setting loads the model once and evaluates the same 600 tokens (sample corpus text) three
times from an empty KV cache; prints the median.

    .venv/bin/python benchmarks/prompt_speed.py [--model PATH] [--settings 512:2,256:2,512:1]
"""

from __future__ import annotations

import argparse
import statistics
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
DEFAULT = Path.home() / ".cache" / "drrag" / "models" / "gemma-3-270m-q4_k_m.gguf"


def speed(model: Path, n_batch: int, threads: int, n_tokens: int = 600, rounds: int = 3) -> float:
    from llama_cpp import Llama

    llm = Llama(str(model), n_ctx=2048, n_batch=n_batch, n_ubatch=n_batch, n_threads=threads,
                n_threads_batch=threads, verbose=False)
    text = " ".join(p.read_text(encoding="utf-8") for p in sorted((REPO / "sample_corpus" / "people").glob("*.md")))
    tokens = llm.tokenize(text.encode())[:n_tokens]
    rates = []
    for _ in range(rounds):
        llm.reset()
        t0 = time.perf_counter()
        llm.eval(tokens)
        rates.append(len(tokens) / (time.perf_counter() - t0))
    return statistics.median(rates)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--model", type=Path, default=DEFAULT)
    parser.add_argument("--settings", default="512:2,256:2,512:1", help="n_batch:threads, comma-separated")
    args = parser.parse_args()
    for item in args.settings.split(","):
        n_batch, threads = (int(x) for x in item.split(":"))
        rate = speed(args.model, n_batch, threads)
        print(f"n_batch {n_batch:4d}  threads {threads}  {rate:6.0f} tokens/s", flush=True)


if __name__ == "__main__":
    main()
