"""The sampler's settings and the least-sure-token watcher (llm/sampling.py)."""

from __future__ import annotations

import numpy as np

from drrag_cli.llm.sampling import LeastProb, sampling_kwargs


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

    from drrag_cli.llm.llm import LocalLLM

    llm = LocalLLM()
    assert llm.last_call is None
    llm.last_call = "this thread's"  # type: ignore[assignment]
    seen: list[object] = []
    other = threading.Thread(target=lambda: seen.append(llm.last_call))
    other.start()
    other.join()
    assert seen == [None] and llm.last_call == "this thread's"


def test_a_copied_answer_follows_one_run_of_the_fed_tokens() -> None:
    """Pure logic over token ids: a start anywhere, then only what follows the tokens so
    far in some span, or an end token; ``strayed`` when the model's top choice was masked."""
    from drrag_cli.llm.sampling import SpanOnly

    copy = SpanOnly([[5, 6, 7], [6, 8]], ends=[0], prompt_len=2)
    scores = np.zeros(10, dtype=np.float32)
    scores[9] = 5.0  # the model's favourite: in no span
    first = copy(np.array([1, 2]), scores.copy())
    assert sorted(np.flatnonzero(np.isfinite(first))) == [0, 5, 6, 7, 8] and copy.strayed
    copy = SpanOnly([[5, 6, 7], [6, 8]], ends=[0], prompt_len=2)
    scores[:] = 0.0
    scores[6] = 5.0
    copy(np.array([1, 2]), scores.copy())
    assert not copy.strayed  # its favourite was allowed
    after_6 = copy(np.array([1, 2, 6]), scores.copy())
    assert sorted(np.flatnonzero(np.isfinite(after_6))) == [0, 7, 8]  # 6 → 7 (first span) or 8 (second)
    after_68 = copy(np.array([1, 2, 6, 8]), scores.copy())
    assert sorted(np.flatnonzero(np.isfinite(after_68))) == [0] and copy.strayed  # the span ended: only the end


def test_copy_goes_before_the_watcher() -> None:
    from drrag_cli.llm.sampling import SpanOnly

    copy = SpanOnly([[5]], ends=[0], prompt_len=0)
    kwargs, least = sampling_kwargs((), 0.0, copy)
    assert list(kwargs["logits_processor"]) == [copy, least]
    assert "logits_processor" not in sampling_kwargs(("yes", "no"), 0.0, copy)[0]  # a grammar instead


def test_only_the_first_token_may_be_a_fed_word_capitalised() -> None:
    """"The cello." from "... plays the cello": token 3 is " the", 4 its " The"."""
    from drrag_cli.llm.sampling import SpanOnly

    copy = SpanOnly([[3, 5], [5, 3]], ends=[0], prompt_len=0, capital={3: 4})
    scores = np.zeros(8, dtype=np.float32)
    assert sorted(np.flatnonzero(np.isfinite(copy(np.array([]), scores.copy())))) == [0, 3, 4, 5]
    assert sorted(np.flatnonzero(np.isfinite(copy(np.array([4]), scores.copy())))) == [0, 5]  # " The" → " cello"
    assert sorted(np.flatnonzero(np.isfinite(copy(np.array([4, 5]), scores.copy())))) == [0]  # the span ended
    again = SpanOnly([[5, 3, 5]], ends=[0], prompt_len=0, capital={3: 4})
    again(np.array([]), scores.copy())
    assert sorted(np.flatnonzero(np.isfinite(again(np.array([5]), scores.copy())))) == [0, 3]  # " the", not " The"


def test_straying_after_a_comma_ends_the_answer() -> None:
    """"Mumbai," then " India" (in no span): the answer ends at the comma, not "Mumbai,
    Maharashtra"; it is not a stray either, as "Mumbai" is the model's own choice."""
    from drrag_cli.llm.sampling import SpanOnly

    copy = SpanOnly([[5, 1, 6]], ends=[0], prompt_len=0, pauses=[1])
    scores = np.zeros(8, dtype=np.float32)
    scores[7] = 9.0  # " India"
    copy(np.array([]), np.where(np.arange(8) == 5, 10.0, 0.0).astype(np.float32))
    copy(np.array([5]), np.where(np.arange(8) == 1, 10.0, 0.0).astype(np.float32))
    assert sorted(np.flatnonzero(np.isfinite(copy(np.array([5, 1]), scores.copy())))) == [0]
    assert not copy.strayed
    copy = SpanOnly([[5, 6]], ends=[0], prompt_len=0, pauses=[1])  # "born in Uppsala and ...": no comma
    copy(np.array([]), np.where(np.arange(8) == 5, 10.0, 0.0).astype(np.float32))
    after = copy(np.array([5]), np.where(np.arange(8) == 1, 10.0, 0.0).astype(np.float32))  # wants ","
    assert sorted(np.flatnonzero(np.isfinite(after))) == [0] and not copy.strayed  # "Uppsala", not "Uppsala and"
    copy = SpanOnly([[5, 6]], ends=[0], prompt_len=0, pauses=[1], numeric=[5])  # " 12 TB": "1" then ","
    copy(np.array([]), np.where(np.arange(8) == 5, 10.0, 0.0).astype(np.float32))
    after = copy(np.array([5]), np.where(np.arange(8) == 1, 10.0, 0.0).astype(np.float32))  # "1,000"
    assert sorted(np.flatnonzero(np.isfinite(after))) == [0, 6] and copy.strayed  # not an answer's end


def test_an_open_answer_is_never_a_bare_yes_or_no() -> None:
    """" no" (token 3, capitalised 4) may not start an answer to "... based on what
    technique?"; " No" as the text writes it (a title, "No Escape": 4 then 6) may, and
    must go on."""
    from drrag_cli.llm.sampling import SpanOnly

    def fresh() -> SpanOnly:
        return SpanOnly([[3, 5], [5, 3], [4, 6]], ends=[0], prompt_len=0, capital={3: 4}, not_first=[3, 4], titled=[4])

    scores = np.zeros(8, dtype=np.float32)
    copy = fresh()
    assert sorted(np.flatnonzero(np.isfinite(copy(np.array([]), scores.copy())))) == [0, 4, 5, 6]  # a start anywhere
    assert sorted(np.flatnonzero(np.isfinite(copy(np.array([4]), scores.copy())))) == [5, 6]  # goes on: not the end
    copy = fresh()
    copy(np.array([]), scores.copy())
    assert sorted(np.flatnonzero(np.isfinite(copy(np.array([5]), scores.copy())))) == [0, 3]  # later: allowed
    plain = SpanOnly([[3, 5]], ends=[0], prompt_len=0, capital={3: 4}, not_first=[3, 4], titled=[4])
    assert sorted(np.flatnonzero(np.isfinite(plain(np.array([]), scores.copy())))) == [0, 5]  # " no" only in text


def test_a_second_answer_never_starts_as_the_echoed_one_did() -> None:
    """" Susie" (tokens 5, 6) was the first answer: token 5 may not open the second, in
    either case of its first letter; " the line" (3, 7) bars only " line" after " the"."""
    from drrag_cli.llm.sampling import Avoid

    vocab = {" Susie": [5, 6], " susie": [8, 6], " the": [3], " the line": [3, 7], " the Line": [3, 9]}
    avoid = Avoid.of([" Susie", " the line"], lambda text: vocab[text], prompt_len=1)
    scores = np.zeros(10, dtype=np.float32)
    first = avoid(np.array([2]), scores.copy())
    assert sorted(np.flatnonzero(~np.isfinite(first))) == [5, 8]  # " Susie" / " susie", not " the"
    after_the = avoid(np.array([2, 3]), scores.copy())
    assert sorted(np.flatnonzero(~np.isfinite(after_the))) == [7, 9]  # " the Yamanote Line" may follow
    assert np.isfinite(avoid(np.array([2, 4]), scores.copy())).all()  # another start: nothing barred
    shun = Avoid([[5]], prompt_len=0)
    kwargs, least = sampling_kwargs((), 0.0, None, shun)
    assert list(kwargs["logits_processor"]) == [shun, least]  # before the copy rule and the watcher
