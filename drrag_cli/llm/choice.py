"""A choice among a question's few answers, scored instead of sampled.

Held to "yes" or "no" by a grammar, Gemma-3-270M says "yes" to most yes/no questions it
cannot decide (on the tuning halves, 68 of its 106 such answers, 42 of them wrong). Its
greedy choice is the first token's: what the rest of each answer would have cost never
counts. Here each option is scored whole, as the prompt's continuation (teacher-forced:
its tokens evaluated one by one after the prompt, their log-probabilities summed), a
``prior`` per option is added, and the best wins. The prior is where a model's known lean
is corrected (``answer.no_bias``; docs/ANSWERS.md measures it). One prompt evaluation
as before, plus the options' few tokens.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import drrag_cli.llm.kv_cache as kv_cache


def scored_choice(model: Any, prompt: list[int], options: Sequence[list[int]], prior: Sequence[float]) -> int:  # noqa: ANN401
    """The index of the best of ``options`` (token lists) as ``model``'s continuation of
    ``prompt`` (:func:`continuation_logprobs` plus ``prior``; the first on a tie)."""
    scores = [lp + bias for lp, bias in zip(continuation_logprobs(model, prompt, options), prior, strict=True)]
    return max(range(len(scores)), key=lambda i: (scores[i], -i))


def continuation_logprobs(model: Any, prompt: list[int], continuations: Sequence[list[int]]) -> list[float]:  # noqa: ANN401
    """Each token list's summed log-probability after ``prompt`` on a llama-cpp ``Llama``:
    the prompt's cells are reused as far as the model holds them, the rest evaluated once;
    each continuation is evaluated after it in turn (its cells overwrite the last one's).
    The model is left holding the prompt."""
    n = len(prompt)
    model.n_tokens = min(kv_cache.shared(model, prompt), n - 1)  # at least the last token: its logits
    model.eval(prompt[model.n_tokens :])
    after_prompt = _log_softmax(_logits(model))
    found = []
    for tokens in continuations:
        model.n_tokens = n
        logprobs, total = after_prompt, 0.0
        for i, token in enumerate(tokens):
            total += float(logprobs[token])
            if i < len(tokens) - 1:
                model.eval([token])
                logprobs = _log_softmax(_logits(model))
        found.append(total)
    model.n_tokens = n
    return found


def _logits(model: Any) -> Any:  # noqa: ANN401
    """The logits of the last token ``model`` evaluated (llama.cpp's own buffer, copied)."""
    import numpy as np

    return np.ctypeslib.as_array(model._ctx.get_logits(), shape=(model.n_vocab(),)).astype(np.float64)


def _log_softmax(logits: Any) -> Any:  # noqa: ANN401
    import numpy as np

    top = logits.max()
    return logits - top - np.log(np.exp(logits - top).sum())
