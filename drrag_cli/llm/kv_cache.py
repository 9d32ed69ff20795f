"""The LLM's KV state across processes: a cold ``ask`` does not recompute the fixed prompt.

Every answer prompt opens with the same instruction and few-shot examples (~290 of the
demo's ~580 tokens with the embedded Gemma). In one process llama.cpp reuses their KV
cells from one question to the next; a new process had to compute them again, about half
of a cold ``ask``'s prefill. So the first completion of a model leaves its state on disk
(``<user cache>/kv/<key>.bin``, ~5–10 MB), and a later process restores it while the model
loads (13 ms). llama-cpp-python's own prefix match then keeps the cells the new prompt
shares with the stored one and recomputes the rest, exactly as a warm process does.

The key is the model file (resolved path, size, mtime), ``n_ctx``, the llama-cpp-python
version and the repacking flag: a state is only ever restored into the context that made
it. A file that fails to load is deleted and the model starts empty, as it would without
this cache. A stored prefix that is not the one a process's first prompt has is replaced
by that prompt's, so the file follows the prompts actually asked.

**Same prompt, same answer.** llama.cpp's arithmetic depends on how a prompt is cut into
batches: evaluating tokens 290-600 after a cached prefix gives slightly different logits
than evaluating 0-600 at once, and on some CPUs (AVX2) that flips a close greedy answer
("Stockholm" / "Uppsala"). So the reuse boundary is a function of the prompt alone
(:func:`prepare`): the fixed part before the question's ``<documents>`` block is always
evaluated on its own, from position 0, and everything after it in one go from there;
only that fixed part is kept between answers and stored for the next process. A cold
``ask``, a warm server and a fresh process now compute every answer the same way.
"""

from __future__ import annotations

import ctypes
import hashlib
import os
from pathlib import Path
from typing import Any

from drrag_cli.config import user_cache_dir


def state_path(model_path: Path, n_ctx: int, plain_buffers: bool) -> Path | None:
    import llama_cpp

    try:
        st = model_path.stat()
    except OSError:
        return None
    ident = f"{model_path.resolve()}|{st.st_size}|{st.st_mtime_ns}|{n_ctx}|{llama_cpp.__version__}|{plain_buffers}"
    ident += "|prefix"  # holds the fixed prefix only (prepare); states of whole prompts are not reused
    return user_cache_dir() / "kv" / f"{hashlib.sha256(ident.encode()).hexdigest()[:24]}.bin"


def restore(model: Any, path: Path | None) -> int:  # noqa: ANN401 — a llama_cpp.Llama
    """Load the state at ``path`` into a fresh ``model``; the number of tokens restored
    (0 when there is none, or it does not load: then the file is removed)."""
    import llama_cpp

    if path is None or not path.is_file() or not hasattr(model, "_requires_eval"):
        return 0
    cap = model.n_ctx()
    tokens = (llama_cpp.llama_token * cap)()
    count = ctypes.c_size_t(0)
    try:
        ok = llama_cpp.llama_state_load_file(model.ctx, str(path).encode(), tokens, cap, ctypes.byref(count))
    except Exception:  # noqa: BLE001 — a broken cache file is no cache, never a failed answer
        ok = False
    n = count.value if ok else 0
    if not 0 < n <= cap:
        path.unlink(missing_ok=True)
        model.reset()
        return 0
    model.input_ids[:n] = tokens[:n]
    model.n_tokens = n
    model._requires_eval = True  # noqa: SLF001 — logits are not part of the state: recompute them
    return n


def shared(model: Any, prompt: list[int]) -> int:  # noqa: ANN401
    """Tokens at the start of ``prompt`` whose KV cells ``model`` already holds."""
    return common_prefix(model.input_ids[: model.n_tokens].tolist(), prompt)


def common_prefix(a: list[int], b: list[int]) -> int:
    """How many tokens ``a`` and ``b`` share from the start."""
    n = 0
    for x, y in zip(a, b, strict=False):
        if x != y:
            break
        n += 1
    return n


def prepare(model: Any, tokens: list[int], fixed: int, again: bool = False) -> None:  # noqa: ANN401
    """Leave exactly ``tokens[:fixed]`` in ``model``'s KV cells, evaluated on their own from
    position 0, so that the completion evaluates the rest in one go from ``fixed``: kept
    when the cells already hold that prefix computed this way (``drrag_prefix``), else
    computed now. ``fixed`` = 0 (a prompt without documents): llama-cpp-python's own
    prefix reuse, as before. ``again`` (the same prompt asked once more, after an echo):
    when the cells hold the whole prompt they stay, and llama-cpp-python replays only its
    last token."""
    if again and shared(model, tokens) >= len(tokens):
        return
    have = getattr(model, "drrag_prefix", 0)
    if not fixed:
        model.drrag_prefix = 0  # what this prompt leaves in the cells is no canonical prefix
        return
    if have == fixed and shared(model, tokens) >= fixed:
        model.n_tokens = fixed
        return
    model.reset()
    model.eval(tokens[:fixed])
    model.drrag_prefix = fixed


def save(model: Any, path: Path | None, n: int | None = None) -> None:  # noqa: ANN401
    """Write ``model``'s state, its first ``n`` tokens (default: all), to ``path``
    atomically; failures are silent."""
    import llama_cpp

    n = int(model.n_tokens) if n is None else n
    if path is None or n == 0:
        return
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tokens = (llama_cpp.llama_token * n)(*model.input_ids[:n].tolist())
        if llama_cpp.llama_state_save_file(model.ctx, str(tmp).encode(), tokens, n):
            os.replace(tmp, path)
    except Exception:  # noqa: BLE001, S110 — the cache is an optimisation only
        pass
    finally:
        tmp.unlink(missing_ok=True)
