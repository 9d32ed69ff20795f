"""The GGUF models already on this machine: Ollama's store, LM Studio's folder and the
Hugging Face cache, found on disk with no network.

    found = discover()                     # .models (FoundModel) and .skipped (one line each)
    resolve("ollama:llama3.2:3b")          # its GGUF path; also "lmstudio:…", "hf:org/name",
    resolve("llama3.2:3b")                 # or a name unique among the found ones

Where each keeps its files:

* **Ollama**: ``$OLLAMA_MODELS``, else ``~/.ollama/models`` and
  ``/usr/share/ollama/.ollama/models``. ``manifests/<registry>/<namespace>/<model>/<tag>`` is
  JSON whose layer of media type ``application/vnd.ollama.image.model`` names the blob
  ``blobs/sha256-<hex>``, a plain GGUF file. Named as Ollama names it: ``model:tag`` in its
  own library, ``namespace/model:tag`` elsewhere on its registry, ``host/namespace/model:tag``
  on another; a name without a tag means ``:latest``, as in Ollama.
* **LM Studio**: ``~/.lmstudio/models/<publisher>/<model>/*.gguf`` (and the older
  ``~/.cache/lm-studio/models``), named ``publisher/model``.
* **Hugging Face**: ``$HF_HUB_CACHE``, else ``$HF_HOME/hub``, else ``~/.cache/huggingface/hub``:
  ``models--<org>--<name>/snapshots/<revision>/*.gguf``, named ``org/name``.

A folder or repository holding several GGUF files names each ``…/<file name>``. What cannot
be used is skipped with one line saying why: a broken manifest, a missing blob, a model
stored as non-GGUF tensor layers, a model split across files, a vision projector.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path

from drrag_cli.errors import ModelError
from drrag_cli.llm.gguf import Header, read_header

SOURCES = ("ollama", "lmstudio", "hf")
OLLAMA_MODEL = "application/vnd.ollama.image.model"
OLLAMA_TENSOR = "application/vnd.ollama.image.tensor"
OLLAMA_REGISTRY, OLLAMA_LIBRARY = "registry.ollama.ai", "library"
_SHARD = re.compile(r"-(\d{5})-of-(\d{5})\.gguf$", re.IGNORECASE)


@dataclass(frozen=True)
class FoundModel:
    """A GGUF another tool keeps, by the name that tool gives it."""

    source: str  # one of SOURCES
    name: str
    path: Path
    header: Header | None = None  # read by discover(), not by resolve()

    @property
    def ref(self) -> str:
        """What ``--model`` and ``llm.model_path`` take: ``source:name``."""
        return f"{self.source}:{self.name}"

    def to_json(self) -> dict[str, object]:
        size = self.path.stat().st_size if self.path.exists() else None
        head = self.header.to_json() if self.header else {}
        return {"ref": self.ref, "source": self.source, "name": self.name, "path": str(self.path), "size": size,
                **head}  # fmt: skip


@dataclass
class Discovery:
    models: list[FoundModel] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)  # one line each: what, where, why


def discover(env: Mapping[str, str] | None = None, home: Path | None = None) -> Discovery:
    """Every usable GGUF the three tools keep, its header read; what is not usable, skipped
    with a line."""
    found = Discovery()
    for model, problem in _candidates(env, home):
        if problem:
            found.skipped.append(problem)
            continue
        assert model is not None
        try:
            header = read_header(model.path)
        except ValueError as exc:
            found.skipped.append(f"{model.ref}: {exc}")
            continue
        if header.architecture == "clip":
            found.skipped.append(f"{model.ref}: {model.path} is a vision projector, not a language model")
        elif header.split > 1:
            found.skipped.append(f"{model.ref}: {model.path} is one of {header.split} files of a split model")
        else:
            found.models.append(FoundModel(model.source, model.name, model.path, header))
    return found


def resolve(ref: str, env: Mapping[str, str] | None = None, home: Path | None = None) -> Path:
    """The GGUF path of ``ref`` (``source:name``, or a name unique among the found models);
    a ModelError naming the found ones otherwise. Headers are not read: loading checks the file."""
    source, sep, name = ref.partition(":")
    prefixed = bool(sep) and source in SOURCES
    models = [m for m, problem in _candidates(env, home) if m is not None and not problem]
    wanted = {name if prefixed else ref}
    if (not prefixed or source == "ollama") and ":" not in (name if prefixed else ref):
        wanted.add(f"{name if prefixed else ref}:latest")  # Ollama's default tag
    hits = [m for m in models if m.name in wanted and (not prefixed or m.source == source)]
    if len(hits) == 1:
        return hits[0].path
    if hits:
        raise ModelError(f"{ref!r} names {len(hits)} models ({', '.join(m.ref for m in hits)}); give one of those")
    known = ", ".join(m.ref for m in models[:8]) + (", …" if len(models) > 8 else "")
    raise ModelError(
        f"no GGUF file or found model named {ref!r} (found: {known or 'none'}; `drrag models list` shows them "
        f"all, or give a path to a .gguf)"
    )


def _candidates(env: Mapping[str, str] | None, home: Path | None) -> Iterator[tuple[FoundModel | None, str]]:
    """(a model, "") or (None, why something was skipped), from the three tools' folders."""
    env = os.environ if env is None else env
    home = Path.home() if home is None else home
    yield from _ollama(_ollama_roots(env, home))
    yield from _folders("lmstudio", [home / ".lmstudio" / "models", home / ".cache" / "lm-studio" / "models"])
    yield from _hf(_hf_root(env, home))


def _ollama_roots(env: Mapping[str, str], home: Path) -> list[Path]:
    if env.get("OLLAMA_MODELS"):
        return [Path(env["OLLAMA_MODELS"]).expanduser()]
    return [home / ".ollama" / "models", Path("/usr/share/ollama/.ollama/models")]


def _hf_root(env: Mapping[str, str], home: Path) -> Path:
    if env.get("HF_HUB_CACHE"):
        return Path(env["HF_HUB_CACHE"]).expanduser()
    if env.get("HF_HOME"):
        return Path(env["HF_HOME"]).expanduser() / "hub"
    return home / ".cache" / "huggingface" / "hub"


def _ollama(roots: list[Path]) -> Iterator[tuple[FoundModel | None, str]]:
    seen: set[Path] = set()
    for root in roots:
        manifests = root / "manifests"
        if not manifests.is_dir() or root.resolve() in seen:
            continue
        seen.add(root.resolve())
        for manifest in sorted(p for p in manifests.glob("*/*/*/*") if p.is_file()):
            yield _ollama_model(root, manifest)


def _ollama_name(manifest: Path) -> str:
    registry, namespace, model, tag = manifest.parts[-4:]
    if registry != OLLAMA_REGISTRY:
        return f"{registry}/{namespace}/{model}:{tag}"
    return f"{model}:{tag}" if namespace == OLLAMA_LIBRARY else f"{namespace}/{model}:{tag}"


def _ollama_model(root: Path, manifest: Path) -> tuple[FoundModel | None, str]:
    ref = f"ollama:{_ollama_name(manifest)}"
    try:
        layers = json.loads(manifest.read_text(encoding="utf-8"))["layers"]
        kinds = [str(layer.get("mediaType", "")) for layer in layers]
        digests = [str(layer["digest"]) for layer in layers if layer.get("mediaType") == OLLAMA_MODEL]
    except (OSError, ValueError, KeyError, TypeError, AttributeError) as exc:
        return None, f"{ref}: manifest {manifest} is not readable ({type(exc).__name__}: {exc}); skipped"
    if OLLAMA_TENSOR in kinds and not digests:
        return None, f"{ref}: stored as non-GGUF tensor layers ({manifest}), which llama.cpp cannot load; skipped"
    if len(digests) != 1:
        why = "no model layer" if not digests else f"{len(digests)} model layers (a split model)"
        return None, f"{ref}: manifest {manifest} has {why}; skipped"
    blob = root / "blobs" / digests[0].replace(":", "-", 1)
    if not blob.is_file():
        return None, f"{ref}: its model blob {blob} is missing (run `ollama pull` again); skipped"
    return FoundModel("ollama", ref.removeprefix("ollama:"), blob), ""


def _ggufs(folder: Path) -> list[Path]:
    """The GGUF files directly in ``folder``: of a split model's shards only the first."""
    files = sorted(p for p in folder.glob("*.gguf") if p.is_file())
    return [p for p in files if not (m := _SHARD.search(p.name)) or m.group(1) == "00001"]


def _named(source: str, name: str, files: list[Path]) -> Iterator[tuple[FoundModel | None, str]]:
    for path in files:
        yield FoundModel(source, name if len(files) == 1 else f"{name}/{path.name}", path), ""


def _folders(source: str, roots: list[Path]) -> Iterator[tuple[FoundModel | None, str]]:
    for root in roots:
        if root.is_dir():
            for folder in sorted(p for p in root.glob("*/*") if p.is_dir()):
                yield from _named(source, f"{folder.parent.name}/{folder.name}", _ggufs(folder))


def _hf(root: Path) -> Iterator[tuple[FoundModel | None, str]]:
    if not root.is_dir():
        return
    for repo in sorted(root.glob("models--*--*")):
        org, _, name = repo.name.removeprefix("models--").partition("--")
        newest: dict[str, Path] = {}  # file name -> its path in the newest snapshot holding it
        snapshots = sorted((p for p in (repo / "snapshots").glob("*") if p.is_dir()), key=_mtime, reverse=True)
        for snapshot in snapshots:
            for path in _ggufs(snapshot):
                newest.setdefault(path.name, path)
        yield from _named("hf", f"{org}/{name}", [newest[n] for n in sorted(newest)])


def _mtime(path: Path) -> float:
    try:
        return path.stat().st_mtime
    except OSError:
        return 0.0
