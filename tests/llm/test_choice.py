"""Options scored whole (llm/choice.py), on the real embedded Gemma."""

from __future__ import annotations

import pytest

from drrag_cli.llm.llm import LocalLLM

PROMPT = "Question: What is the capital of France?\nAnswer:"


@pytest.fixture(scope="module")
def llm() -> LocalLLM:
    return LocalLLM()


def test_each_option_is_scored_as_the_prompt_s_continuation_and_the_prompt_stays(llm: LocalLLM) -> None:
    from drrag_cli.llm.choice import continuation_logprobs

    model = llm.model
    prompt = llm._tokens(PROMPT, bos=True)
    options = [llm._tokens(" Paris"), llm._tokens(" Berlin"), llm._tokens(" Paris")]
    paris, berlin, again = continuation_logprobs(model, prompt, options)
    assert paris > berlin and paris == pytest.approx(again)  # the second option's cells do not leak into the third
    assert model.n_tokens == len(prompt) and model.input_ids[: len(prompt)].tolist() == prompt


def test_a_prior_moves_the_choice_and_the_call_is_recorded(llm: LocalLLM) -> None:
    assert llm.complete(PROMPT, max_tokens=8, options=("Paris", "Berlin"), prior=(0.0, 0.0)).strip() == "Paris"
    assert llm.complete(PROMPT, max_tokens=8, options=("Paris", "Berlin"), prior=(0.0, 50.0)).strip() == "Berlin"
    call = llm.last_call
    assert call is not None and call.prompt_tokens == len(llm._tokens(PROMPT, bos=True)) and call.wall_s > 0
    streamed: list[str] = []
    llm.complete(PROMPT, max_tokens=8, options=("Paris", "Berlin"), prior=(0.0, 0.0), on_token=streamed.append)
    assert "".join(streamed).strip() == "Paris"
