"""What the sampler may write, and how sure the model was of what it wrote.

A constrained answer (yes/no, "A or B", a stated year or number) is a llama.cpp grammar
over its options; a free answer, decoded greedily, is watched by a logits processor that
keeps the lowest probability of a token the model chose (``"confidence"`` in ``--json``
and in ``drrag eval`` records). No llama.cpp or numpy import until a call needs them.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any


def sampling_kwargs(options: Sequence[str], temperature: float) -> tuple[dict[str, Any], LeastProb | None]:
    """``create_completion`` keyword arguments for one answer (a grammar for ``options``,
    else a :class:`LeastProb` watcher when decoding is greedy) and that watcher."""
    kwargs: dict[str, Any] = {"temperature": temperature}
    if options:
        kwargs["grammar"] = grammar(options)
        return kwargs, None
    if temperature:
        return kwargs, None  # a sampled token need not be the most likely one
    from llama_cpp import LogitsProcessorList

    least = LeastProb()
    kwargs["logits_processor"] = LogitsProcessorList([least])
    return kwargs, least


class LeastProb:
    """A llama.cpp logits processor that changes nothing and keeps the lowest probability
    of the most likely token over the steps of a greedy completion: the probability of the
    least sure token the model wrote (the newline that ends the answer included). A weak
    signal of a wrong answer: ROC AUC 0.74 over Gemma's free HotpotQA answers (q0-99),
    0.62 on q250-499, 0.44 on MuSiQue (docs/BENCHMARKS.md); so it is reported, not acted on."""

    def __init__(self) -> None:
        self.value = 2.0  # above any probability: nothing seen yet

    @property
    def seen(self) -> float | None:
        """The lowest probability seen, or None before the first step."""
        return self.value if self.value <= 1.0 else None

    def __call__(self, _input_ids: Any, scores: Any) -> Any:
        import numpy as np

        top = float(scores.max())
        self.value = min(self.value, 1.0 / float(np.exp(scores - top).sum()))
        return scores


def grammar(options: Sequence[str]) -> Any:
    """A GBNF grammar whose only sentences are ``options`` (quotes and backslashes escaped),
    after an optional space: a completion prompt ends in "Answer:", and the model's own
    next token carries the space (" 2014"); without it the grammar forces tokens the
    model rarely writes there, and its choice among the options changes."""
    from llama_cpp import LlamaGrammar

    quoted = [json.dumps(o, ensure_ascii=False) for o in options]
    return LlamaGrammar.from_string('root ::= " "? (' + " | ".join(quoted) + ")", verbose=False)
