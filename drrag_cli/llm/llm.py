"""Local GGUF language model (llama-cpp-python), loaded lazily and once per process.

The embedded default is Gemma-3-270M (:mod:`.embedded`: assembled from its PyPI chunk
packages once, its layers widened to f16); any other GGUF is used as it is.
"""

from __future__ import annotations

import atexit
import contextlib
import os
import re
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

import drrag_cli.llm.kv_cache as kv_cache
from drrag_cli.config import LLMSettings
from drrag_cli.errors import ModelError
from drrag_cli.llm import found
from drrag_cli.llm.embedded import FIX_HINT, default_model_path
from drrag_cli.llm.perf import CallStats, amx_cpu, cores, plain_cpu_buffers, quiet_llama, threads_now
from drrag_cli.llm.sampling import Avoid, SpanOnly, end_tokens, sampling_kwargs
from drrag_cli.text.fence import DOCS_OPEN

BEST = "best"  # llm.model_path: the strongest installed model (drrag models install NAME)
_GGUF_MAGIC = b"GGUF"

_DATA_OPEN, _DATA_CLOSE = "\ufdd0", "\ufdd1"  # Unicode noncharacters: placeholders in chat_tokens
_DATA_RE = re.compile(f"{_DATA_OPEN}(\\d+){_DATA_CLOSE}")

_CACHE: dict[tuple[str, int, int], Any] = {}  # (path, n_ctx, threads) -> llama_cpp.Llama
_LOCK = threading.Lock()


def _check_gguf(path: Path) -> None:
    if not path.exists():
        raise ModelError(f"GGUF model {path} not found ({FIX_HINT})")
    if not path.is_file():
        raise ModelError(f"GGUF model {path} is not a file ({FIX_HINT})")
    try:
        with path.open("rb") as handle:
            magic = handle.read(4)
    except OSError as exc:
        raise ModelError(f"cannot read GGUF model {path}: {exc} ({FIX_HINT})") from exc
    if magic != _GGUF_MAGIC:
        raise ModelError(f"{path} is not a GGUF file (no GGUF header; {FIX_HINT})")


def resolve_model_path(setting: str) -> Path | None:
    """``llm.model_path``: "" = the embedded model (None), "best" = the strongest installed
    catalogue model (:func:`drrag_cli.models.best_model_path`, else the embedded one), a
    path to any local .gguf, or a model Ollama, LM Studio or the Hugging Face cache keeps
    ("ollama:llama3.2:3b", "hf:org/name", or a name unique among them: :mod:`.found`)."""
    if not setting:
        return None
    if setting == BEST:
        from drrag_cli.models import best_model_path

        return best_model_path()
    path = Path(setting).expanduser()
    source = setting.partition(":")[0]
    if (source in found.SOURCES and ":" in setting) or not (path.exists() or setting.lower().endswith(".gguf")):
        return found.resolve(setting)  # "SOURCE:NAME", or a name that is no file here
    return path


def _load(path: Path, n_ctx: int, threads: int, shared: bool = True) -> Any:
    """The model, loaded once per process and key; ``shared`` False: a load of its own."""
    key = (str(path.resolve()), n_ctx, threads)
    with _LOCK:
        if shared and key in _CACHE:
            return _CACHE[key]
        _check_gguf(path)
        from llama_cpp import Llama  # lazy: heavy native library

        quiet_llama()  # its log dropped at the source: verbose=True never swaps fds 1/2 or sys.stdout
        try:
            with plain_cpu_buffers(amx_cpu()):
                model = Llama(
                    model_path=str(path),
                    n_ctx=n_ctx,
                    n_threads=threads or cores(),  # 0 = auto: set per completion (threads_now)
                    verbose=True,
                )
        except (ValueError, RuntimeError, OSError) as exc:
            raise ModelError(f"cannot load GGUF model {path} (corrupt or unsupported: {exc}; {FIX_HINT})") from exc
        model.drrag_kv_path = kv_cache.state_path(path, n_ctx, amx_cpu())
        model.drrag_kv_pending = True  # this process may still leave its state for the next
        model.drrag_prefix = kv_cache.restore(model, model.drrag_kv_path)  # stored: a fixed prefix
        if not shared:
            return model
        if not _CACHE:
            atexit.register(_close_all)
        _CACHE[key] = model
        return model


def _close_all() -> None:
    """Free the loaded models while llama_cpp's module is whole: left to the garbage
    collector at interpreter exit, ``Llama.__del__`` ran after its globals were cleared and
    printed "Exception ignored in … 'NoneType' object is not callable"."""
    with _LOCK:
        models = list(_CACHE.values())
        _CACHE.clear()
    for model in models:
        with contextlib.suppress(Exception):
            model.close()


PRELOAD_THREAD = "drrag-llm-preload"


def wait_for_loads() -> None:
    """Wait for a model that is still loading on a :meth:`LocalLLM.preload` thread: the CLI
    calls it after its output is out, so the process ends with no thread inside llama.cpp."""
    for thread in threading.enumerate():
        if thread.name == PRELOAD_THREAD and thread is not threading.current_thread():
            thread.join()


@contextlib.contextmanager
def preloading(generator: object, *, certain: bool = False) -> Iterator[None]:
    """Run the block while ``generator`` gets its model ready on a thread (when it can
    preload): loads it when the model is ``certain`` to answer, else only finds its file and
    has the OS read it ahead, so an answer a reader finds pays no model memory and no load.
    The block never waits: an answer found without the model is returned (and printed) at
    once; nothing the thread does reaches stdout or stderr (:func:`.perf.quiet_llama`)."""
    preload = getattr(generator, "preload", None)
    if preload is not None:
        preload(load=certain)
    yield


class LocalLLM:
    """A llama.cpp model behind the small interface that :mod:`.answer` needs."""

    def __init__(self, settings: LLMSettings | None = None, *, shared: bool = True) -> None:
        """``shared``: the process's one load of this model (cached by path, n_ctx and
        threads); False: a load of its own, freed by :meth:`close`."""
        self.settings = settings or LLMSettings()
        self.shared = shared
        self.n_ctx = self.settings.n_ctx
        self.max_tokens = self.settings.max_tokens
        self._path = resolve_model_path(self.settings.model_path)
        self._model: Any = None
        self._calls = threading.local()  # last_call per thread: `drrag serve` answers on several
        self._end_tokens: list[int] | None = None
        if self._path is not None:
            _check_gguf(self._path)  # fail early and clearly; loading stays lazy

    @property
    def last_call(self) -> CallStats | None:
        """What this thread's latest completion cost (and how sure it was): the request that
        made it reads it, not one that finished later on another thread."""
        return getattr(self._calls, "value", None)

    @last_call.setter
    def last_call(self, stats: CallStats | None) -> None:
        self._calls.value = stats

    @property
    def no_bias(self) -> float:
        """What this model's scored choice adds to "no" (``answer.no_bias: auto``): its own
        fit when it is a catalogue model, else the embedded model's (:func:`drrag_cli.models.fitted_no_bias`)."""
        from drrag_cli.models import fitted_no_bias

        return fitted_no_bias(self._path)

    @property
    def model_path(self) -> Path:
        if self._path is None:
            self._path = default_model_path(self.settings.f16_layers)
        return self._path

    @property
    def model(self) -> Any:
        if self._model is None:
            self._model = _load(self.model_path, self.n_ctx, self.settings.threads, self.shared)
        return self._model

    def close(self) -> None:
        """Free a model loaded not ``shared`` (``drrag models recommend`` measures one model
        at a time); a shared one stays for the process's other users."""
        model, self._model = self._model, None
        if model is not None and not self.shared:
            model.close()

    def preload(self, *, load: bool = True) -> threading.Thread:
        """Start getting the model ready on a thread, so a cold ``ask`` overlaps it with
        retrieval. ``load``: load it (~0.7 s, ~450 MB for the embedded model; a later
        :attr:`model` waits for it, ``_LOCK``); else only find the file (the embedded one is
        assembled and widened on first use) and have the OS read it ahead
        (:func:`_read_ahead`), which costs this process no memory. A failed load is silent
        here and raised again, with its message, by that later access.

        Not a daemon: the interpreter joins it before it finalizes. A daemon thread still
        inside llama.cpp while the interpreter tore itself down (an answer found without
        the model, printed before the load ended) segfaulted at exit. Joining costs at most
        the rest of the work, after the answer is out; the CLI joins it itself
        (:func:`wait_for_loads`) so that Ctrl-C meanwhile is one line, not a traceback."""

        def ready() -> None:
            try:
                if load:
                    self.model  # noqa: B018 — the access loads
                else:
                    _read_ahead(self.model_path)
            except Exception:  # noqa: BLE001, S110 — the caller's own access re-raises it
                pass

        thread = threading.Thread(target=ready, name=PRELOAD_THREAD, daemon=False)
        thread.start()
        return thread

    @property
    def has_chat_template(self) -> bool:
        return bool(self.model.metadata.get("tokenizer.chat_template"))

    def count_tokens(self, text: str) -> int:
        """Tokens of ``text`` as a prompt (BOS included). Special-token text counts as plain
        text, as :meth:`complete` tokenises it; a rendered chat prompt is over-counted by a
        few tokens per turn marker, never under-counted."""
        return len(self._tokens(text, bos=True))

    def _tokens(self, text: str, *, bos: bool = False, special: bool = False) -> list[int]:
        return list(self.model.tokenize(text.encode("utf-8", "replace"), add_bos=bos, special=special))

    def complete(
        self,
        prompt: str,
        *,
        max_tokens: int,
        stop: list[str] | None = None,
        on_token: Callable[[str], None] | None = None,
        options: Sequence[str] = (),
        spans: Sequence[str] = (),
        not_first: Sequence[str] = (),
        avoid: Sequence[str] = (),
        prior: Sequence[float] = (),
    ) -> str:
        """Greedy-ish completion of ``prompt``; streams pieces through ``on_token``. With
        ``options`` a llama.cpp grammar lets the model write only one of them (with a
        ``prior`` per option, each is scored whole instead: :mod:`.choice`); with
        ``spans`` (and no options) it may only copy a run of one of those texts, never
        just a word of ``not_first`` (:meth:`.sampling.SpanOnly.of`), and never start as
        an ``avoid`` answer did (:class:`.sampling.Avoid`).

        ``prompt`` is tokenised as plain text: a document that contains ``<start_of_turn>``
        or ``<|im_end|>`` gets the characters, never the model's control token (llama.cpp
        parses special tokens in a *string* prompt, so token ids are passed instead).
        """
        tokens = self._tokens(prompt, bos=True)
        cut = prompt.rfind(DOCS_OPEN)
        fixed = kv_cache.common_prefix(self._tokens(prompt[:cut], bos=True), tokens) if cut > 0 else 0
        if options and prior:
            return self._choose(tokens, fixed, options, prior, " ", on_token)
        return self._generate(tokens, max_tokens, stop, on_token, options, fixed, spans, not_first, avoid)

    def _choose(
        self,
        tokens: list[int],
        fixed: int,
        options: Sequence[str],
        prior: Sequence[float],
        lead: str,
        on_token: Callable[[str], None] | None,
    ) -> str:
        """The option :func:`.choice.scored_choice` picks after ``tokens`` (each option
        written after ``lead``: a completion's answer follows "Answer:" with its space),
        recorded in :attr:`last_call` like a completion."""
        from drrag_cli.llm.choice import scored_choice

        written = [self._tokens(lead + option) for option in options]
        with self._call(tokens, fixed):
            text = lead + options[scored_choice(self.model, tokens, written, prior)]
        if on_token is not None:
            on_token(text)
        return text

    @contextlib.contextmanager
    def _call(self, tokens: list[int], fixed: int, again: bool = False) -> Iterator[dict[str, Any]]:
        """Around one answer to ``tokens``: llama.cpp's threads set, the cells of the fixed
        prefix prepared (:func:`.kv_cache.prepare`, ``again`` as there) and its counters reset;
        after it, :attr:`last_call` from those counters and what the caller put in the yielded
        dict (``least_prob``, ``strayed``), and the prefix stored for the next cold process
        when this process's first call has one (:func:`_keeps_state`)."""
        from llama_cpp import llama_perf_context, llama_perf_context_reset, llama_set_n_threads

        model = self.model
        keep = _keeps_state(model, tokens, fixed)
        threads = threads_now(self.settings.threads)
        llama_set_n_threads(model.ctx, threads, threads)
        start = time.perf_counter()
        kv_cache.prepare(model, tokens, fixed, again=again)
        reused = min(kv_cache.shared(model, tokens), len(tokens) - 1)  # as llama-cpp-python reuses it
        llama_perf_context_reset(model.ctx)
        extra: dict[str, Any] = {}
        yield extra
        perf = llama_perf_context(model.ctx)
        self.last_call = CallStats(
            prompt_tokens=len(tokens),
            reused_tokens=reused,
            evaluated_tokens=perf.n_p_eval,
            prompt_eval_s=perf.t_p_eval_ms / 1000,
            generated_tokens=perf.n_eval,
            generate_eval_s=perf.t_eval_ms / 1000,
            wall_s=time.perf_counter() - start,
            threads=threads,
            **extra,
        )
        if keep:
            kv_cache.save(model, model.drrag_kv_path, fixed)

    def _generate(
        self,
        tokens: list[int],
        max_tokens: int,
        stop: list[str] | None,
        on_token: Callable[[str], None] | None,
        options: Sequence[str],
        fixed: int = 0,
        spans: Sequence[str] = (),
        not_first: Sequence[str] = (),
        avoid: Sequence[str] = (),
    ) -> str:
        """Complete ``tokens``; ``tokens[:fixed]`` (the instruction and examples before the
        question's documents) is evaluated apart and kept between answers (:func:`.kv_cache.prepare`).
        A second ask of the same prompt (``avoid``) keeps the cells the first one left and
        replays only the prompt's last token: ~1 s less per echoed answer on 2 cores."""
        model = self.model  # loads (quietly) before anything is streamed
        copy = self._copy_only(spans, len(tokens), not_first) if spans and not options else None
        shun = Avoid.of(avoid, self._tokens, len(tokens)) if avoid and not options else None
        kwargs, least = sampling_kwargs(options, self.settings.temperature, copy, shun)
        kwargs.update(max_tokens=max_tokens, stop=stop or [])
        with self._call(tokens, fixed, again=bool(avoid)) as extra:
            try:
                if on_token is None:
                    result = model.create_completion(tokens, **kwargs)
                    text = str(result["choices"][0]["text"])
                else:
                    pieces: list[str] = []
                    for chunk in model.create_completion(tokens, stream=True, **kwargs):
                        piece = str(chunk["choices"][0]["text"])
                        if piece:
                            pieces.append(piece)
                            on_token(piece)
                    text = "".join(pieces)
            except ValueError as exc:  # e.g. "Requested tokens exceed context window"
                raise ModelError(f"generation failed: {exc} (raise llm.n_ctx)") from exc
            extra.update(least_prob=None if least is None else least.seen, strayed=copy is not None and copy.strayed)
        return text

    def _copy_only(self, spans: Sequence[str], prompt_len: int, not_first: Sequence[str]) -> SpanOnly:
        """The logits processor that holds a free answer to runs of ``spans`` (:class:`.sampling.SpanOnly`)."""
        model = self.model
        text_of = lambda t: model.detokenize([t]).decode("utf-8", "replace")  # noqa: E731
        self._end_tokens = self._end_tokens or end_tokens(self._tokens, model.token_eos())
        return SpanOnly.of(spans, self._tokens, text_of, self._end_tokens, prompt_len, not_first)

    def render_chat(self, messages: list[dict[str, str]]) -> str:
        """The GGUF's own chat template applied to ``messages`` (generation prompt added).

        The leading BOS text is dropped because :meth:`complete` adds BOS itself. A
        template that rejects the system role gets it merged into the first user turn.
        """
        template = self.model.metadata.get("tokenizer.chat_template")
        if not template:
            raise ModelError(f"{self.model_path} has no chat template; use complete()")
        from llama_cpp.llama_chat_format import Jinja2ChatFormatter

        bos, eos = self._special_texts()
        formatter = Jinja2ChatFormatter(template=template, eos_token=eos, bos_token=bos)
        try:
            prompt = formatter(messages=messages).prompt
        except Exception:  # noqa: BLE001 - jinja raise_exception, e.g. "no system role"
            prompt = formatter(messages=_merge_system(messages)).prompt
        if bos and prompt.startswith(bos):
            prompt = prompt[len(bos) :]
        return prompt

    def chat_tokens(self, messages: list[dict[str, str]]) -> list[int]:
        """Token ids of the chat prompt: the template's own text with its special tokens,
        each message's content as plain text (so a passage cannot close a turn or open a
        new one). The template is rendered around placeholders that are then tokenised
        apart; a template that rewrites the placeholders gets all-plain tokenisation."""
        return self._chat_tokens(messages)[0]

    def _chat_tokens(self, messages: list[dict[str, str]]) -> tuple[list[int], int]:
        """:meth:`chat_tokens` and where the message holding the documents starts (0: none)."""
        marked = [{**m, "content": f"{_DATA_OPEN}{i}{_DATA_CLOSE}"} for i, m in enumerate(messages)]
        template = self.render_chat(marked)
        pieces = _DATA_RE.split(template)  # [template, index, template, index, ..., template]
        indices = [int(i) for i in pieces[1::2]]
        if sorted(indices) != sorted(set(indices)) or not indices:
            return self._tokens(self.render_chat(messages), bos=True), 0
        tokens = self._tokens(pieces[0], bos=True, special=True)
        fixed = 0
        for index, text in zip(indices, pieces[2::2], strict=True):
            if not fixed and DOCS_OPEN in messages[index]["content"]:
                fixed = len(tokens)
            tokens += self._tokens(messages[index]["content"])
            tokens += self._tokens(text, special=True)
        return tokens, fixed

    def chat(
        self,
        messages: list[dict[str, str]],
        *,
        max_tokens: int,
        on_token: Callable[[str], None] | None = None,
        options: Sequence[str] = (),
        avoid: Sequence[str] = (),
        prior: Sequence[float] = (),
    ) -> str:
        """Render ``messages`` with the GGUF template and complete up to end-of-turn, never
        starting as an ``avoid`` answer did; ``options`` and ``prior`` as for :meth:`complete`."""
        _, eos = self._special_texts()
        stop = [s for s in (eos, "<end_of_turn>", "<|im_end|>", "<|eot_id|>") if s]
        tokens, fixed = self._chat_tokens(messages)
        if options and prior:
            return self._choose(tokens, fixed, options, prior, "", on_token)
        return self._generate(tokens, max_tokens, stop, on_token, options, fixed, avoid=avoid)

    def _special_texts(self) -> tuple[str, str]:
        model = self.model
        bos_id, eos_id = model.token_bos(), model.token_eos()
        bos = model._model.token_get_text(bos_id) if bos_id != -1 else ""
        eos = model._model.token_get_text(eos_id) if eos_id != -1 else ""
        return bos, eos


def _keeps_state(model: Any, tokens: list[int], fixed: int) -> bool:  # noqa: ANN401
    """True for a process's first completion with a fixed prefix when the next cold process
    should start from it (:mod:`.kv_cache`): there is no stored state, or it holds another
    prefix."""
    if not getattr(model, "drrag_kv_pending", False) or not fixed:
        return False
    model.drrag_kv_pending = False
    return getattr(model, "drrag_prefix", 0) != fixed or kv_cache.shared(model, tokens) < fixed


def _read_ahead(path: Path) -> None:
    """Ask the OS to read the model file into the page cache now (``POSIX_FADV_WILLNEED``,
    asynchronous): a first load after a reboot then finds it there. Where the call does not
    exist, nothing."""
    advise = getattr(os, "posix_fadvise", None)
    if advise is None:
        return
    with contextlib.suppress(OSError):
        fd = os.open(path, os.O_RDONLY)
        try:
            advise(fd, 0, 0, os.POSIX_FADV_WILLNEED)
        finally:
            os.close(fd)


def _merge_system(messages: list[dict[str, str]]) -> list[dict[str, str]]:
    system = "\n\n".join(m["content"] for m in messages if m["role"] == "system")
    rest = [dict(m) for m in messages if m["role"] != "system"]
    if system and rest and rest[0]["role"] == "user":
        rest[0]["content"] = f"{system}\n\n{rest[0]['content']}"
    return rest
