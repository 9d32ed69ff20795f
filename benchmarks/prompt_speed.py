"""llama.cpp prompt evaluation speed (tokens/s) of a GGUF on this machine, by batch and threads.

The answer's time on a CPU is mostly the prompt's evaluation: this isolates it. Each
setting loads the model once and evaluates the same 600 tokens (sample corpus text) three
times from an empty KV cache; prints the median.

With ``--widen`` it compares the embedded Gemma as shipped (Q4_K_M) with its f16-layer copy
(``llm.f16_layers``, drrag_cli/llm/embedded.py) as an answer uses them: 500 new prompt
tokens after a 287-token stored prefix, then 10 generated tokens, the two models taking turns
(``--rounds`` each) so that a busy neighbour slows both alike; prints medians and ratios.
``--compare A.gguf B.gguf ...`` does the same for any GGUFs, e.g. copies of the embedded
model that llama.cpp's quantizer wrote in other types (``--write-types q8_0,q4_0,f16``
writes them into ``--out-dir`` first).

    .venv/bin/python benchmarks/prompt_speed.py [--model PATH] [--settings 512:2,256:2,512:1]
    .venv/bin/python benchmarks/prompt_speed.py --widen [--rounds 9]
    .venv/bin/python benchmarks/prompt_speed.py --write-types q8_0,q4_0,f16 --out-dir benchmarks/out/types
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


def in_turns(paths: dict[str, Path], rounds: int, threads: int) -> None:
    """GGUFs in turns: prompt and generation tokens/s of each; the first one's ratios to the others."""
    from llama_cpp import Llama

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
    first = next(iter(paths))
    for name, path in paths.items():
        p, g = statistics.median(prompt[name]), statistics.median(generate[name])
        p0, g0 = statistics.median(prompt[first]), statistics.median(generate[first])
        print(f"{name:24s} {path.stat().st_size / 1e6:6.1f} MB  prompt {p:5.0f} tokens/s ({p / p0:.2f}x)  "
              f"generation {g:5.1f} tokens/s ({g / g0:.2f}x)  answer {NEW / p + GENERATED / g:.2f} s")


TYPES = {"f16": 1, "q4_0": 2, "q8_0": 7}  # llama.cpp's LLAMA_FTYPE_MOSTLY_*


def write_types(names: list[str], out_dir: Path) -> list[Path]:
    """The embedded GGUF rewritten by llama.cpp's quantizer with every tensor in each type
    (``NAME``) or with the token embedding kept in q8_0 (``NAME+q8e``, as drrag's f16 layers)."""
    from drrag_cli.llm.embedded import GGML_TYPE_Q8_0, _quantize, default_model_path

    source = default_model_path()
    out_dir.mkdir(parents=True, exist_ok=True)
    paths = [source]
    for name in names:
        kind, _, keep = name.partition("+")
        out = out_dir / f"gemma-{name}.gguf"
        if _quantize(source, out, TYPES[kind], GGML_TYPE_Q8_0 if keep == "q8e" else None) != 0:
            raise SystemExit(f"llama.cpp could not write {out}")
        paths.append(out)
    return paths


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--model", type=Path, default=DEFAULT)
    parser.add_argument("--settings", default="512:2,256:2,512:1", help="n_batch:threads, comma-separated")
    parser.add_argument("--widen", action="store_true", help="the shipped Gemma vs its f16-layer copy, in turns")
    parser.add_argument("--compare", type=Path, nargs="+", help="these GGUFs in turns (the first is the baseline)")
    parser.add_argument("--write-types", help="comma-separated: f16, q4_0, q8_0, f16+q8e; then compared in turns")
    parser.add_argument("--out-dir", type=Path, default=REPO / "benchmarks" / "out" / "types")
    parser.add_argument("--rounds", type=int, default=9)
    parser.add_argument("--threads", type=int, default=2)
    args = parser.parse_args()
    if args.widen:
        from drrag_cli.llm.embedded import default_model_path

        shipped, wide = default_model_path(), default_model_path(f16_layers=True)
        in_turns({"shipped (Q4_K_M)": shipped, "f16 layers": wide}, args.rounds, args.threads)
        return
    if args.write_types:
        args.compare = write_types(args.write_types.split(","), args.out_dir)
    if args.compare:
        in_turns({p.name: p for p in args.compare}, args.rounds, args.threads)
        return
    for item in args.settings.split(","):
        n_batch, threads = (int(x) for x in item.split(":"))
        rate = speed(args.model, n_batch, threads)
        print(f"n_batch {n_batch:4d}  threads {threads}  {rate:6.0f} tokens/s", flush=True)


if __name__ == "__main__":
    main()
