"""spaCy's blank English pipeline with its rule-based sentencizer, loaded without torch.

spaCy imports thinc, and thinc imports torch only to learn whether it could use it
(``thinc/compat.py``); a blank pipeline's tokenizer and sentencizer never do. On this
project's 2-core machine ``import spacy`` took 3.49 s and 278 MB peak RSS with torch, 1.07 s
and 98 MB without (``/usr/bin/time -f "%e s %M KB" python -c "import spacy"``, and the same
with torch blocked). ``drrag index`` on the ONNX export, ``serve`` and ``watch`` need torch
for nothing else. So while spaCy is first imported, in this thread only, ``import torch``
fails as it would were torch not installed (thinc then works without it), and other
threads import torch as usual. Where torch is already loaded it is left alone.

``import spacy`` also imports its command line (``from .cli.info import info``): requests,
httpx, weasel and jinja2, 0.22 of its 0.74 s here (``python -X importtime``). While spaCy is
first imported, ``spacy.cli`` and ``spacy.cli.info`` are stand-ins whose ``info`` imports the
real one when called; they leave ``sys.modules`` as soon as spaCy is in, so a later ``import
spacy.cli`` gets the real package.

A process that has not loaded spaCy splits its first 500,000 characters without it
(:mod:`drrag_cli.ingest.spacy_replay`, from the rules the pipeline wrote when it was last
built), then loads spaCy: on the shared QA data the replay splits 0.51 M characters a second
against spaCy's 0.87 M (``python benchmarks/replay_check.py``), so an edit skips spaCy's 1.1 s
load, and a whole build pays at most 0.4 s for having started without it.
"""

from __future__ import annotations

import sys
import threading
from collections.abc import Iterable, Iterator
from functools import lru_cache
from types import ModuleType
from typing import Any

from drrag_cli.ingest import spacy_replay

_BLOCKED = "torch"
REPLAY_CHARS = 500_000  # at most this many characters a process splits without spaCy (module docstring)
_REPLAYED = [0]  # characters this process has split so far without spaCy: a whole build soon loads it


class _NoTorchHere:
    """A meta-path finder that fails ``import torch`` in the threads it is switched on for."""

    def __init__(self) -> None:
        self.local = threading.local()

    def find_spec(self, name: str, _path: Any = None, _target: Any = None) -> None:  # noqa: ANN401
        if getattr(self.local, "on", False) and (name == _BLOCKED or name.startswith(_BLOCKED + ".")):
            raise ModuleNotFoundError(f"No module named {name!r} (not needed by spaCy's sentencizer)", name=name)


_FINDER = _NoTorchHere()


def _import_spacy() -> Any:  # noqa: ANN401 - the spacy module
    if "spacy" in sys.modules:
        import spacy

        return spacy
    stand_ins = _cli_stand_ins()
    blocking = _BLOCKED not in sys.modules
    if blocking:
        sys.meta_path.insert(0, _FINDER)  # for this import only: each insert is paired with a remove
        _FINDER.local.on = True
    sys.modules.update(stand_ins)
    try:
        import spacy
    finally:
        for name, module in stand_ins.items():
            if sys.modules.get(name) is module:
                del sys.modules[name]
        if blocking:
            _FINDER.local.on = False
            sys.meta_path.remove(_FINDER)
    return spacy


def _cli_stand_ins() -> dict[str, ModuleType]:
    """``spacy.cli`` and ``spacy.cli.info`` for the length of spaCy's import (module docstring)."""

    def info(*args: Any, **kwargs: Any) -> Any:  # noqa: ANN401 - spaCy's own info(), imported when called
        from spacy.cli.info import info as real

        return real(*args, **kwargs)

    cli, cli_info = ModuleType("spacy.cli"), ModuleType("spacy.cli.info")
    cli.__path__ = []  # a package, so that "spacy.cli.info" resolves under it
    cli_info.info = info  # type: ignore[attr-defined]
    return {"spacy.cli": cli, "spacy.cli.info": cli_info}


@lru_cache(maxsize=1)
def nlp() -> Any:  # noqa: ANN401 - spacy.Language
    """The shared pipeline: ``spacy.blank("en")`` + ``sentencizer``."""
    spacy = _import_spacy()
    pipeline = spacy.blank("en")
    pipeline.add_pipe("sentencizer")
    pipeline.max_length = 5_000_000
    spacy_replay.save_rules(pipeline, spacy.about.__version__)
    return pipeline


def sentence_bounds(texts: Iterable[str], chars: int, batch_size: int = 50) -> Iterator[list[tuple[int, int]]]:
    """(start_char, end_char) of each text's sentences, as spaCy's sentencizer finds them: by
    its rules replayed when spaCy is not loaded and the texts (``chars`` in all) are short,
    else by spaCy."""
    replay = None
    if "spacy" not in sys.modules and _REPLAYED[0] + chars <= REPLAY_CHARS:
        replay = spacy_replay.load()
    if replay is not None:
        _REPLAYED[0] += chars
        return (replay.sentences(t) for t in texts)
    return ([(s.start_char, s.end_char) for s in doc.sents] for doc in nlp().pipe(texts, batch_size=batch_size))
