"""An int8 (dynamically quantized) ONNX export of the embedder against today's, for index time.

Quantizes the verified export (``drrag index`` makes it) with onnxruntime's
``quantize_dynamic`` in two ways: only the MatMul weights, per output channel; and every
quantizable op, per channel with reduced range. On the same HotpotQA dev500 paragraphs it
reports passages/s for sentence-transformers (torch), the fp32 export and each int8 one, all
on this machine's cores, and the cosine of each int8 vector to its fp32 one (min, mean).

    python benchmarks/int8_embed.py [-n 400] [--cache-dir DIR]

``--cache-dir DIR`` also writes DIR/drrag (an XDG cache holding the ``--variant`` int8 export
in place of the fp32 one, the probe vector re-recorded, the models folder linked), so that
recall over the shared sets can be measured with it, beside today's:

    XDG_CACHE_HOME=DIR OUT=DIR/out bash benchmarks/run_all.sh recall
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
DEV = REPO.parent / "shared" / "data" / "hotpotqa" / "dev500.ircot.jsonl"
VARIANTS = {
    "int8-matmul": {"op_types_to_quantize": ["MatMul"], "per_channel": True},
    "int8-all": {"per_channel": True, "reduce_range": True},
}


def texts(n: int) -> list[str]:
    rows = [json.loads(line) for line in DEV.read_text(encoding="utf-8").splitlines()[100:]]
    return [f"{c['title']} {c['paragraph_text']}" for r in rows for c in r["contexts"]][:n]


def quantized(folder: Path, out: Path, options: dict) -> Path:
    import onnx
    from onnxruntime.quantization import QuantType, quantize_dynamic

    out.mkdir(parents=True, exist_ok=True)
    shutil.copy(folder / "tokenizer.json", out / "tokenizer.json")
    quantize_dynamic(str(folder / "model.onnx"), str(out / "model.onnx"), weight_type=QuantType.QInt8,
                     extra_options={"DefaultTensorType": onnx.TensorProto.FLOAT}, **options)  # fmt: skip
    return out


def rate(encode, batch: list[str]) -> float:  # noqa: ANN001
    encode(batch[:8])
    start = time.perf_counter()
    encode(batch)
    return len(batch) / (time.perf_counter() - start)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("-n", type=int, default=400, help="paragraphs embedded by each")
    ap.add_argument("--cache-dir", help="also write an XDG cache whose export is an int8 one (--variant)")
    ap.add_argument("--variant", choices=list(VARIANTS), default="int8-matmul", help="the export --cache-dir holds")
    ap.add_argument("--out", default=str(REPO / "benchmarks" / "out" / "int8"))
    args = ap.parse_args()
    from drrag_cli.index.embedder import DEFAULT_MODEL, resolve_model
    from drrag_cli.index.onnx_embed import find_export
    from drrag_cli.index.onnx_run import PROBES, OnnxModel

    model_id, path = resolve_model(DEFAULT_MODEL)
    found = find_export(model_id, path)
    if found is None:
        sys.exit("no verified ONNX export: run `drrag index` once (it makes one)")
    folder, meta = found
    batch = texts(args.n)
    fp32 = OnnxModel(folder, meta)
    reference = fp32.encode(batch, threads=2)
    from sentence_transformers import SentenceTransformer

    torch_model = SentenceTransformer(path, device="cpu")
    rows = {"sentence-transformers": rate(lambda t: torch_model.encode(t, batch_size=32), batch),
            "onnx-fp32": rate(lambda t: fp32.encode(t, threads=2), batch)}  # fmt: skip
    cosines = {}
    for name, options in VARIANTS.items():
        model = OnnxModel(quantized(folder, Path(args.out) / name, options), meta)
        rows[name] = rate(lambda t, m=model: m.encode(t, threads=2), batch)
        cos = (reference * model.encode(batch, threads=2)).sum(axis=1)
        cosines[name] = {"min": round(float(cos.min()), 4), "mean": round(float(cos.mean()), 4)}
    base = rows["sentence-transformers"]
    print(f"| embedder ({len(batch)} dev500 paragraphs) | passages/s | vs sentence-transformers | cosine to fp32 |")
    print("|---|---|---|---|")
    for name, value in rows.items():
        cos = cosines.get(name)
        shown = f"{cos['min']} min / {cos['mean']} mean" if cos else ""
        print(f"| {name} | {value:.1f} | {value / base:.2f}x | {shown} |")
    if args.cache_dir:
        cache = Path(args.cache_dir) / "drrag"
        target = cache / "onnx" / folder.name
        shutil.copytree(folder, target, dirs_exist_ok=True)
        shutil.copy(Path(args.out) / args.variant / "model.onnx", target / "model.onnx")
        int8 = OnnxModel(target, meta)
        meta["probe0"] = [float(x) for x in int8.encode([PROBES[0]])[0]]  # its own self-check vector
        meta["onnx_bytes"] = (target / "model.onnx").stat().st_size  # else the export counts as incomplete
        (target / "check.json").write_text(json.dumps(meta, indent=1), encoding="utf-8")
        models = cache / "models"
        if not models.exists():
            models.symlink_to(Path.home() / ".cache" / "drrag" / "models", target_is_directory=True)
        print(f"\nint8 cache: XDG_CACHE_HOME={args.cache_dir}")


if __name__ == "__main__":
    main()
