"""llama.cpp prompt evaluation speed (tokens/s) of a GGUF on this machine, by batch and threads.

The answer's time on a CPU is mostly the prompt's evaluation: this isolates it. Each
setting loads the model once and evaluates the same 600 tokens (sample corpus text) three
times from an empty KV cache; prints the median.

With ``--widen`` it compares the embedded Gemma as shipped (Q4_K_M) with its f16-layer copy
(``llm.f16_layers``, drrag_cli/generate/embedded.py) as an answer uses them: 500 new prompt
tokens after a 287-token stored prefix, then 10 generated tokens, the two models taking turns
(``--rounds`` each) so that a busy neighbour slows both alike; prints medians and ratios.

    .venv/bin/python benchmarks/prompt_speed.py [--model PATH] [--settings 512:2,256:2,512:1]
    .venv/bin/python benchmarks/prompt_speed.py --widen [--rounds 9]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
DEFAULT = Path.home() / ".cache" / "drrag" / "models" / "gemma-3-270m-q4_k_m.gguf"
PREFIX, NEW, GENERATED = 287, 500, 10  # a sample-corpus answer: stored prefix, new prompt tokens, answer


def _text() -> str:
    return " ".join(p.read_text(encoding="utf-8") for p in sorted((REPO / "sample_corpus" / "people").glob("*.md")))


def speed(model: Path, n_batch: int, threads: int, n_tokens: int = 600, rounds: int = 3) -> float:
    from llama_cpp import Llama

    llm = Llama(str(model), n_ctx=2048, n_batch=n_batch, n_ubatch=n_batch, n_threads=threads,
                n_threads_batch=threads, verbose=False)
    tokens = llm.tokenize(_text().encode())[:n_tokens]
    rates = []
    for _ in range(rounds):
        llm.reset()
        t0 = time.perf_counter()
        llm.eval(tokens)
        rates.append(len(tokens) / (time.perf_counter() - t0))
    return statistics.median(rates)


def widen(rounds: int, threads: int) -> None:
    """Shipped vs f16-layer copy, in turns: prompt and generation tokens/s, and their ratio."""
    from llama_cpp import Llama

    from drrag_cli.generate.embedded import default_model_path

    paths = {"shipped (Q4_K_M)": default_model_path(), "f16 layers": default_model_path(f16_layers=True)}
    models = {name: Llama(str(p), n_ctx=2048, n_threads=threads, verbose=False) for name, p in paths.items()}
    tokens = next(iter(models.values())).tokenize(_text().encode())[: PREFIX + NEW + GENERATED]
    prompt: dict[str, list[float]] = {name: [] for name in models}
    generate: dict[str, list[float]] = {name: [] for name in models}
    for _ in range(rounds):
        for name, llm in models.items():
            llm.reset()
            llm.eval(tokens[:PREFIX])
            t0 = time.perf_counter()
            llm.eval(tokens[PREFIX : PREFIX + NEW])
            t1 = time.perf_counter()
            for token in tokens[PREFIX + NEW :]:
                llm.eval([token])
            prompt[name].append(NEW / (t1 - t0))
            generate[name].append(GENERATED / (time.perf_counter() - t1))
    for name, path in paths.items():
        print(f"{name:18s} {path.stat().st_size / 1e6:6.1f} MB  prompt {statistics.median(prompt[name]):5.0f} "
              f"tokens/s  generation {statistics.median(generate[name]):5.1f} tokens/s")
    (a, b) = (statistics.median(prompt[n]) for n in models)
    (c, d) = (statistics.median(generate[n]) for n in models)
    answer = [NEW / r + GENERATED / g for r, g in ((a, c), (b, d))]
    print(f"f16 layers / shipped: prompt {b / a:.2f}x, generation {d / c:.2f}x; "
          f"{NEW} prompt + {GENERATED} answer tokens {answer[0]:.2f} s -> {answer[1]:.2f} s")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--model", type=Path, default=DEFAULT)
    parser.add_argument("--settings", default="512:2,256:2,512:1", help="n_batch:threads, comma-separated")
    parser.add_argument("--widen", action="store_true", help="the shipped Gemma vs its f16-layer copy, in turns")
    parser.add_argument("--rounds", type=int, default=9)
    parser.add_argument("--threads", type=int, default=2)
    args = parser.parse_args()
    if args.widen:
        widen(args.rounds, args.threads)
        return
    for item in args.settings.split(","):
        n_batch, threads = (int(x) for x in item.split(":"))
        rate = speed(args.model, n_batch, threads)
        print(f"n_batch {n_batch:4d}  threads {threads}  {rate:6.0f} tokens/s", flush=True)


if __name__ == "__main__":
    main()
