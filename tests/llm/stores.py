"""Another tool's model store in a temp dir, around the real embedded GGUF (hard-linked):
an Ollama store with one usable model and three that are not, an LM Studio folder and a
Hugging Face cache, each holding the same model. Used by the discovery and recommend tests."""

from __future__ import annotations

import hashlib
import json
import os
import shutil
from pathlib import Path

import pytest

from drrag_cli.config import user_cache_dir


def _place(source: Path, target: Path) -> Path:
    target.parent.mkdir(parents=True, exist_ok=True)
    try:
        os.link(source, target)
    except OSError:  # another file system
        shutil.copyfile(source, target)
    return target


def _manifest(store: Path, name: str, layers: list[dict[str, object]] | str) -> None:
    model, tag = name.split(":")
    path = store / "manifests" / "registry.ollama.ai" / "library" / model / tag
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(layers if isinstance(layers, str) else json.dumps({"schemaVersion": 2, "layers": layers}))


def build_stores(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, gguf: Path) -> dict[str, Path]:
    """An Ollama store (one model and three that cannot be used), an LM Studio folder and an
    HF cache, each holding the embedded GGUF; HOME moved there, the drrag cache left in place."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(user_cache_dir().parent))
    home = tmp_path / "home"
    ollama = tmp_path / "ollama"
    digest = hashlib.sha256(gguf.name.encode()).hexdigest()  # any digest: Ollama's is the file's sha256
    _place(gguf, ollama / "blobs" / f"sha256-{digest}")
    (ollama / "blobs" / "sha256-template").write_text("{{ .Prompt }}")
    model = {"mediaType": "application/vnd.ollama.image.model", "digest": f"sha256:{digest}"}
    _manifest(ollama, "tiny:latest", [model, {"mediaType": "application/vnd.ollama.image.template",
                                              "digest": "sha256:template"}])  # fmt: skip
    _manifest(ollama, "broken:1b", "{not json")
    _manifest(ollama, "ghost:1b", [{**model, "digest": "sha256:" + "0" * 64}])
    _manifest(ollama, "tensors:1b", [{"mediaType": "application/vnd.ollama.image.tensor", "digest": "sha256:1"}])
    lmstudio = _place(gguf, home / ".lmstudio" / "models" / "acme" / "tiny-GGUF" / "tiny-Q4_K_M.gguf")
    hf = tmp_path / "hf"
    blob = _place(gguf, hf / "hub" / "models--acme--tiny-GGUF" / "blobs" / digest)
    snapshot = hf / "hub" / "models--acme--tiny-GGUF" / "snapshots" / "0123abc" / "tiny-Q4_K_M.gguf"
    snapshot.parent.mkdir(parents=True)
    snapshot.symlink_to(os.path.relpath(blob, snapshot.parent))
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("OLLAMA_MODELS", str(ollama))
    monkeypatch.setenv("HF_HOME", str(hf))
    monkeypatch.delenv("HF_HUB_CACHE", raising=False)
    return {"ollama": ollama / "blobs" / f"sha256-{digest}", "lmstudio": lmstudio, "hf": snapshot}
