"""The sampler's settings and the least-sure-token watcher (generate/sampling.py)."""

from __future__ import annotations

import numpy as np

from drrag_cli.generate.sampling import LeastProb, sampling_kwargs


def test_least_prob_keeps_the_lowest_top_probability_and_changes_nothing() -> None:
    least = LeastProb()
    assert least.seen is None
    sure = np.array([10.0, 0.0, 0.0], dtype=np.float32)
    torn = np.array([1.0, 1.0, 0.0], dtype=np.float32)
    assert least(None, sure) is sure and least.seen > 0.99
    least(None, torn)
    assert abs(least.seen - 1 / (2 + np.exp(-1.0))) < 1e-6  # two tokens equally likely, a third less
    least(None, sure)
    assert least.seen < 0.5  # the lowest step stays


def test_a_constrained_or_sampled_answer_is_not_watched() -> None:
    kwargs, least = sampling_kwargs((), 0.0)
    assert least is not None and kwargs["logits_processor"][0] is least
    assert sampling_kwargs(("yes", "no"), 0.0)[1] is None  # a grammar's pick
    assert sampling_kwargs((), 0.7)[1] is None  # a sampled token need not be the most likely


def test_last_call_belongs_to_the_thread_that_made_it() -> None:
    """Behind `drrag serve`'s queue another request may finish a completion between this
    one's end and its reading the stats: each thread reads its own."""
    import threading

    from drrag_cli.generate.llm import LocalLLM

    llm = LocalLLM()
    assert llm.last_call is None
    llm.last_call = "this thread's"  # type: ignore[assignment]
    seen: list[object] = []
    other = threading.Thread(target=lambda: seen.append(llm.last_call))
    other.start()
    other.join()
    assert seen == [None] and llm.last_call == "this thread's"
