"""`Service`: one warm drrag shared by every request of `drrag serve` and `drrag mcp`.

    service = Service(load_settings())
    service.load()                       # index, embedder (ONNX), classifier, LLM: once
    service.search("heron lead", k=3)    # the `drrag search --json` document
    service.ask("Where was Heron's lead born?", on_token=print)  # the `drrag ask --json` one

Concurrency. Searches run side by side: the published generation is immutable, its
SQLite store is opened ``immutable=1`` with ``check_same_thread=False`` (SQLite is built
serialized, ``sqlite3.threadsafety == 3``), a tantivy searcher and hnswlib's
``knn_query`` are safe for concurrent readers, ONNX ``InferenceSession.run`` is too, and
the classifier is plain numpy. Every lazily built part is built once in :meth:`load`, so
no two threads race to create it. llama.cpp is not re-entrant: every generation goes
through ONE first-come-first-served :class:`LLMQueue`; a request that waits longer than
``serve.timeout`` gets :class:`~drrag_cli.errors.BusyError` (HTTP 503). Tokenising (for
``tokens_fed`` and the question limit) only reads the vocabulary and needs no turn.

Fresh index. Before each request :meth:`refresh` reads ``CURRENT`` (one small read);
when a newer generation was published it is opened and warmed completely, then swapped
in as one reference. A request holds the :class:`_Generation` it started with to its
end, so an in-flight request finishes on the old generation (whose files stay readable:
the writer keeps the previous generation one round, and open files outlive unlinking).
``CURRENT`` is written only after a generation is complete and fsynced
(:func:`drrag_cli.index.layout.publish`), so a half-built index is never seen.
"""

from __future__ import annotations

import hashlib
import logging
import threading
import time
from collections import deque
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from drrag_cli.errors import BusyError, DrragError, InputError

if TYPE_CHECKING:
    from drrag_cli.config import Settings
    from drrag_cli.index.api import Index
    from drrag_cli.pipeline import Pipeline

log = logging.getLogger("drrag.serve")

POLL_S = 0.25  # how often a request waiting for the LLM checks whether its client left
MAX_K = 1000  # a client's k beyond this is refused: a bound on the work one request may ask for


class Cancelled(Exception):  # noqa: N818 - a request's end, not a failure
    """The client went away: its generation stopped between two tokens."""


class LLMQueue:
    """A first-come-first-served lock for the one LLM; waiting is bounded and cancellable."""

    def __init__(self) -> None:
        self._mutex = threading.Lock()
        self._waiters: deque[threading.Event] = deque()
        self._busy = False

    @property
    def waiting(self) -> int:
        return len(self._waiters)

    def acquire(self, timeout: float, cancelled: Callable[[], bool] | None = None) -> bool:
        """True once it is this caller's turn; False after ``timeout`` seconds. Raises
        :class:`Cancelled` if ``cancelled()`` turns true while waiting."""
        with self._mutex:
            if not self._busy and not self._waiters:
                self._busy = True
                return True
            turn = threading.Event()
            self._waiters.append(turn)
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            if turn.wait(max(0.0, min(POLL_S, left))):
                return True
            gone = cancelled is not None and cancelled()
            if gone or left <= 0:
                with self._mutex:
                    if turn.is_set():  # handed over just now: take it, then give it back
                        self._release_locked()
                    else:
                        self._waiters.remove(turn)
                if gone:
                    raise Cancelled
                return False

    def release(self) -> None:
        with self._mutex:
            self._release_locked()

    def _release_locked(self) -> None:
        if self._waiters:
            self._waiters.popleft().set()  # the next waiter owns it now
        else:
            self._busy = False


class QueuedGenerator:
    """The LLM behind the queue: each generation takes a turn; everything else (the chat
    template, counting tokens) reads the loaded model directly."""

    def __init__(self, llm: Any, queue: LLMQueue, timeout: float) -> None:
        self.llm = llm
        self.queue = queue
        self.timeout = timeout
        self.n_ctx = llm.n_ctx
        self.max_tokens = llm.max_tokens
        self.local = threading.local()  # the current request's `cancelled`

    preload = None  # loaded in Service.load: no preload thread per request (pipeline.preloading)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.llm, name)

    @contextmanager
    def turn(self) -> Iterator[None]:
        cancelled = getattr(self.local, "cancelled", None)
        if cancelled is not None and cancelled():
            raise Cancelled
        if not self.queue.acquire(self.timeout, cancelled):
            raise BusyError(
                f"the local LLM is busy: waited {self.timeout:g} s behind {self.queue.waiting} other request(s); "
                "retry later, or raise serve.timeout / --timeout"
            )
        try:
            yield
        finally:
            self.queue.release()

    def complete(self, prompt: str, **kwargs: Any) -> str:
        with self.turn():
            return self.llm.complete(prompt, **kwargs)

    def chat(self, messages: list[dict[str, str]], **kwargs: Any) -> str:
        with self.turn():
            return self.llm.chat(messages, **kwargs)


@dataclass
class _Generation:
    """One published generation, opened and warm, with the pipeline that reads it."""

    name: str
    index: Index
    pipeline: Pipeline


class Service:
    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.root = Path(settings.index.path).expanduser()
        self.queue = LLMQueue()
        self.started = time.time()
        self.requests = 0
        self.switches = 0
        self._generator: QueuedGenerator | None = None
        self._classifier: Any = None
        self._live: _Generation | None = None
        self._refreshing = threading.Lock()
        self._count = threading.Lock()
        self._failed: str | None = None  # a generation that would not open: not retried

    # -- lifecycle -------------------------------------------------------------------
    def load(self) -> None:
        """Open the live generation and load every model once (raises the CLI's errors)."""
        from drrag_cli.llm.llm import LocalLLM
        from drrag_cli.select.classifier import RelevanceClassifier

        llm = LocalLLM(self.settings.llm)
        llm.model  # noqa: B018 - the access loads the GGUF
        self._generator = QueuedGenerator(llm, self.queue, self.settings.serve.timeout)
        self._classifier = RelevanceClassifier.load(self.settings.classifier.path or None)
        self._live = self._open()
        log.info("serving %s (%s)", self.root, self._live.name)

    def _open(self) -> _Generation:
        from drrag_cli.index.api import Index
        from drrag_cli.pipeline import Pipeline

        index = Index.open(self.settings)
        index.store, index.bm25, index.dense  # noqa: B018 - cached parts built once, here
        index.embed(["warm up"])  # loads the ONNX session (or torch) before any request
        pipeline = Pipeline(self.settings, index=index, generator=self._generator, classifier=self._classifier)
        return _Generation(index.gen.name, index, pipeline)

    def _current(self) -> _Generation:
        """The generation a request runs on (after switching, if a new one was published)."""
        if self._live is None:
            self.load()
        self.refresh()
        with self._count:
            self.requests += 1
        assert self._live is not None
        return self._live

    def refresh(self) -> bool:
        """Switch to a newly published generation; True if switched. One thread opens it
        while the others go on with the current one."""
        from drrag_cli.index import layout

        live = self._live
        gen = layout.current_generation(self.root)
        if live is None or gen is None or gen.name in (live.name, self._failed):
            return False
        if not self._refreshing.acquire(blocking=False):
            return False
        try:
            if self._live is not live:
                return False
            try:
                fresh = self._open()
            except (DrragError, OSError) as err:  # e.g. rebuilt with another embedding model
                self._failed = gen.name
                log.warning("not switching to %s: %s; still serving %s", gen.name, err, live.name)
                return False
            self._live = fresh  # one reference: requests already running keep theirs
            self.switches += 1
            log.info("switched %s -> %s", live.name, fresh.name)
            return True
        finally:
            self._refreshing.release()

    # -- requests ------------------------------------------------------------------------
    def search(self, query: str, k: int | None = None, mode: str | None = None, strategy: str | None = None) -> dict:
        """Exactly the `drrag search --json` document (with ``strategy``: the context it selects)."""
        from drrag_cli.question import checked_question

        checked_k(k)
        live = self._current()
        if strategy is not None:
            from drrag_cli.results import search_json

            return search_json(live.pipeline.retrieve(query, strategy, k=k))
        settings = self.settings
        mode = settings.search.mode if mode is None else mode
        k = settings.search.k if k is None else k
        query = checked_question(query, settings)
        from drrag_cli.types import hits_json

        return hits_json(query, mode, live.index.search(query, mode=mode, k=k))

    def ask(
        self,
        question: str,
        strategy: str | None = None,
        k: int | None = None,
        on_token: Callable[[str], None] | None = None,
        cancelled: Callable[[], bool] | None = None,
    ) -> dict:
        """Exactly the `drrag ask --json` document. ``on_token`` gets the answer as it is
        generated; ``cancelled()`` is polled while waiting for the LLM and between tokens,
        and when it turns true the generation stops with :class:`Cancelled`."""
        checked_k(k)
        live = self._current()
        hook = None
        if on_token is not None or cancelled is not None:

            def hook(piece: str) -> None:
                if cancelled is not None and cancelled():
                    raise Cancelled
                if on_token is not None:
                    on_token(piece)

        assert self._generator is not None
        self._generator.local.cancelled = cancelled
        try:
            return live.pipeline.ask(question, strategy, k=k, on_token=hook).to_json()
        finally:
            self._generator.local.cancelled = None

    def get_passage(self, passage_id: int) -> dict:
        """One passage with its text, source, title and lines."""
        live = self._current()
        found = live.index.passages([passage_id])
        if passage_id not in found:
            raise InputError(
                f"no passage {passage_id} in the index at {self.root} ({live.name}); "
                "take a passage_id from search or ask"
            )
        return found[passage_id].to_json(text=True)

    def get_document(self, source: str, lines: tuple[int, int] | None = None) -> dict:
        """An indexed document (or lines of it) as indexed. ``source`` must be one the
        index holds, exactly as search/ask return it: no other file is ever read."""
        live = self._current()
        if lines is not None and (len(lines) != 2 or lines[0] < 1 or lines[1] < lines[0]):
            raise InputError(f"lines must be [first, last] with 1 <= first <= last (got {list(lines)})")
        conn = live.index.store.conn
        row = conn.execute("SELECT id, file, sha256 FROM documents WHERE source = ? LIMIT 1", (source,)).fetchone()
        if row is None:
            raise InputError(
                f"{source!r} is not a source in the index at {self.root}; "
                "take a `source` from search or ask (only indexed documents can be read)"
            )
        doc_id, file, sha = row
        ids = live.index.store.document_passages([doc_id]).get(doc_id, [])
        passages = [p for p in (live.index.passages(ids).get(pid) for pid in ids) if p is not None]
        title = passages[0].title if passages else ""
        text = _file_text(file, sha) if source == file and all(p.lines for p in passages) else None
        if text is not None:  # a text file, unchanged since it was indexed: its own lines
            all_lines = text.splitlines()
            first, last = lines or (1, max(1, len(all_lines)))
            last = min(last, len(all_lines))
            body = "\n".join(all_lines[first - 1 : last])
            return {"source": source, "title": title, "lines": [first, last], "text": body}
        if lines is not None:  # extracted text (PDF, HTML, a record): the passages over those lines
            passages = [p for p in passages if p.lines and p.lines[0] <= lines[1] and p.lines[1] >= lines[0]]
        spans = [p.lines for p in passages if p.lines]
        covered = [min(s[0] for s in spans), max(s[1] for s in spans)] if spans else None
        return {"source": source, "title": title, "lines": covered, "text": "\n\n".join(p.text for p in passages)}

    def status(self) -> dict:
        """`drrag status --json`, plus the service's uptime, requests served and LLM queue."""
        live = self._current()
        return {
            **live.index.status(),
            "uptime_s": round(time.time() - self.started, 1),
            "requests": self.requests,
            "generation_switches": self.switches,
            "llm_waiting": self.queue.waiting,
        }


def checked_k(k: int | None) -> None:
    if k is not None and k > MAX_K:
        raise InputError(f"k must be at most {MAX_K} (got {k})")


def _file_text(file: str, sha256: str) -> str | None:
    """The file's text if its bytes are still the ones indexed, else None."""
    try:
        data = Path(file).read_bytes()
    except OSError:
        return None
    if hashlib.sha256(data).hexdigest() != sha256:
        return None
    return data.decode("utf-8", "replace")
