"""generate_answer with a scripted fake model: trimming, truncation, one call, fallback."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from drrag_cli.answer import FALLBACK_ANSWER, generate_answer
from drrag_cli.errors import ModelError
from drrag_cli.types import Passage


class FakeGenerator:
    """Counts one token per 4 characters; returns a scripted output."""

    def __init__(self, output: str = "Canberra", n_ctx: int = 4096, chat: bool = False) -> None:
        self.output = output
        self.n_ctx = n_ctx
        self.max_tokens = 16
        self.chat_template = chat
        self.calls: list[tuple[str, object]] = []

    @property
    def has_chat_template(self) -> bool:
        return self.chat_template

    def count_tokens(self, text: str) -> int:
        return len(text) // 4 + 1

    def complete(self, prompt: str, *, max_tokens: int, stop=None, on_token=None, options=(), **held) -> str:
        self.calls.append(("complete", prompt))
        self.options, self.prior = tuple(options), tuple(held.get("prior", ()))
        if on_token is not None:
            for piece in self.output.split(" "):
                on_token(piece)
        return self.output

    def render_chat(self, messages: list[dict[str, str]]) -> str:
        return "".join(f"<{m['role']}>{m['content']}\n" for m in messages) + "<assistant>"

    def chat(self, messages, *, max_tokens: int, on_token: Callable[[str], None] | None = None, options=()):
        self.calls.append(("chat", self.render_chat(messages)))
        return self.output


def passage(i: int, words: int = 50) -> Passage:
    text = " ".join(f"w{i}x{j}" for j in range(words))
    return Passage(source=f"doc{i}.md", title=f"Doc {i}", text=text, ordinal=0, char_start=0,
                   char_end=len(text))  # fmt: skip


def test_one_call_all_passages_fit() -> None:
    fake = FakeGenerator(output=" Canberra\nand then more")
    ps = [passage(i) for i in range(3)]
    answer = generate_answer(fake, "Where?", ps)
    assert answer.text == "Canberra"
    assert answer.passages == ps and answer.trimmed == []
    assert answer.llm_calls == 1 and len(fake.calls) == 1
    assert fake.calls[0][1] == answer.prompt
    assert answer.prompt_tokens == fake.count_tokens(answer.prompt)
    assert "[3] Doc 2" in answer.prompt


def test_trims_lowest_ranked_first() -> None:
    ps = [passage(i, words=100) for i in range(5)]
    base = generate_answer(FakeGenerator(), "Where?", ps[:2]).prompt_tokens
    fake = FakeGenerator(n_ctx=base + 16 + 10)  # room for two passages, not three
    answer = generate_answer(fake, "Where?", ps)
    assert answer.passages == ps[:2]
    assert answer.trimmed == [ps[4], ps[3], ps[2]]
    assert answer.prompt_tokens + fake.max_tokens <= fake.n_ctx
    assert "Doc 2" not in answer.prompt and len(fake.calls) == 1


def test_truncates_single_passage_when_useful_part_fits() -> None:
    ps = [passage(0, words=400), passage(1)]
    short = generate_answer(FakeGenerator(), "Where?", [passage(0, words=60)]).prompt_tokens
    fake = FakeGenerator(n_ctx=short + 16)
    answer = generate_answer(fake, "Where?", ps)
    assert answer.truncated and answer.passages == [ps[0]] and answer.trimmed == [ps[1]]
    assert answer.prompt_tokens + 16 <= fake.n_ctx
    assert "w0x30 " in answer.prompt and "w0x399" not in answer.prompt
    assert answer.llm_calls == 1


def test_too_small_context_raises() -> None:
    fake = FakeGenerator(n_ctx=64)
    with pytest.raises(ModelError, match="n_ctx 64 is too small for even one passage"):
        generate_answer(fake, "Where?", [passage(0)])
    assert fake.calls == []


def test_empty_output_falls_back() -> None:
    answer = generate_answer(FakeGenerator(output="  \n"), "Where?", [passage(0)])
    assert answer.text == FALLBACK_ANSWER and answer.llm_calls == 1


def test_no_passages_no_call() -> None:
    fake = FakeGenerator()
    answer = generate_answer(fake, "Where?", [])
    assert answer.text == FALLBACK_ANSWER and answer.llm_calls == 0 and fake.calls == []


def test_chat_template_path_and_streaming() -> None:
    fake = FakeGenerator(output="The answer is Canberra", chat=True)
    answer = generate_answer(fake, "Where?", [passage(0)], on_token=lambda s: None)
    assert fake.calls[0][0] == "chat" and fake.calls[0][1] == answer.prompt
    assert answer.prompt.startswith("<system>") and answer.text == "The answer is Canberra"
    pieces: list[str] = []
    generate_answer(FakeGenerator(output="a b c"), "Q?", [passage(0)], on_token=pieces.append)
    assert pieces == ["a", "b", "c"]


def test_supported_means_the_answer_stands_in_the_fed_text() -> None:
    from drrag_cli.answer.support import is_supported

    texts = ["Tobias Lindqvist was born in Uppsala, Sweden.", "Heron: project overview"]
    assert is_supported("Uppsala", texts)
    assert is_supported("uppsala.", texts)  # SQuAD normalisation on both sides
    assert is_supported("yes", []) and is_supported("No", [])
    assert not is_supported("Canberra", texts)  # copied from a prompt example
    assert not is_supported("Upp", texts)  # whole words only
    assert not is_supported("I don't know.", texts)


def test_an_answer_that_echoes_an_open_question_is_not_supported() -> None:
    from drrag_cli.answer.support import echoes

    assert echoes("Plover", "Which client is the Plover pipeline built for?")
    assert echoes("the Plover pipeline.", "Which client is the Plover pipeline built for?")
    assert not echoes("Vellmar Water Authority", "Which client is the Plover pipeline built for?")
    assert not echoes("Kansas Song", "What is the fight song of the University of Kansas?")  # not a phrase of it
    assert not echoes("Plover", "Which reached 1.0 first, Heron or Plover?")  # a choice names its answers
    assert not echoes("yes", "Is Plover built for Vellmar?")
    # a possessive's "'s" is no part of the name it follows
    assert echoes("Oskar Lindqvist", "Who is Oskar Lindqvist's father?")
    assert echoes("Heron", "Who leads Heron’s firmware team?")
    assert not echoes("Anders Lindqvist", "Who is Oskar Lindqvist's father?")


def test_an_appended_unread_part_is_cut() -> None:
    from drrag_cli.answer.support import supported_part

    texts = ["Tobias was born in Uppsala and grew up in Gävle."]
    assert supported_part("Uppsala, Sweden", texts) == "Uppsala"  # Sweden is not in the text
    assert supported_part("Uppsala, Gävle", texts) == "Uppsala"
    assert supported_part("Gävle, Uppsala", texts) == "Gävle"
    assert supported_part("Stockholm, Sweden", texts) == "Stockholm, Sweden"  # nothing to keep: unchanged
    assert supported_part("Uppsala", texts) == "Uppsala"


def test_a_year_question_is_constrained_to_the_years_the_text_states() -> None:
    fake = FakeGenerator(output=" 1865")
    text = "George V (born 3 June 1865) made the 1925 Birthday Honours; he died in 1936."
    doc = Passage(source="g.md", title="George V", text=text, ordinal=0, char_start=0, char_end=len(text))
    answer = generate_answer(fake, "In which year was the King who made the 1925 Birthday Honours born?", [doc])
    assert answer.text == "1865" and fake.options == ("1865", "1936")
    generate_answer(fake, "Who made the 1925 Birthday Honours?", [doc])
    assert fake.options == ()  # an open question is not constrained
    original = "In which year was the King who made the 1925 Birthday Honours born?"
    generate_answer(fake, "In which year was George V honoured?", [doc], rewritten_from=original)
    assert fake.options == ("1865", "1936")  # the year the question first held stays out


def test_a_how_many_question_is_constrained_to_the_numbers_the_text_states() -> None:
    fake = FakeGenerator(output=" 250 million")
    text = "The Twits has sold 250 million copies in 58 languages since 1980; 40,000 copies were first printed."
    doc = Passage(source="t.md", title="Roald Dahl", text=text, ordinal=0, char_start=0, char_end=len(text))
    answer = generate_answer(fake, "How many copies of the book sold?", [doc])  # two counts: not read; 1980 a date
    assert answer.text == "250 million" and fake.options == ("250 million", "58", "40,000", "40000")


def test_a_picked_number_is_supported_only_beside_the_question_s_words() -> None:
    text = "Each session gets 1,000 look-ups. A batch job gets 5,000 look-ups. The --most option takes 1 to 200 rows."
    doc = Passage(source="s.md", title="search", text=text, ordinal=0, char_start=0, char_end=len(text))
    question = "How many look-ups does a session get?"
    right = generate_answer(FakeGenerator(output=" 1000"), question, [doc])
    assert right.typed and right.supported
    assert right.evidence is not None and right.evidence.text == "Each session gets 1,000 look-ups."
    wrong = generate_answer(FakeGenerator(output=" 1"), question, [doc])
    assert wrong.typed and not wrong.supported and wrong.evidence is None  # stated, but about rows
    free = generate_answer(FakeGenerator(output=" 200"), "What is the most rows --most takes?", [doc])
    assert not free.typed and free.supported  # an open question: in the text is enough


def test_an_answer_that_repeats_the_question_as_written_is_not_supported_after_a_rewrite() -> None:
    """Asked about the bridge by name, the model may still answer with words of the question
    the user wrote (the club, not where its chair grew up); that is no answer either."""
    text = "The Elmstead garden club's chair is Marisol Okonkwo. Marisol Okonkwo's childhood home is in Tamale."
    club = [Passage(source="club.md", title="Elmstead garden club", text=text, ordinal=0, char_start=0,
                    char_end=len(text))]  # fmt: skip
    written = "Where did the current chair of the Elmstead garden club grow up?"
    fake = FakeGenerator(output=" Elmstead garden club")
    answer = generate_answer(fake, "Where did Marisol Okonkwo grow up?", club, rewritten_from=written)
    assert answer.original == written and answer.echoed and not answer.supported
    fake.output = " Tamale"
    answer = generate_answer(fake, "Where did Marisol Okonkwo grow up?", club, rewritten_from=written)
    assert not answer.echoed and answer.supported
    assert generate_answer(fake, written, club).original == ""  # not rewritten
    club[0].text = text.replace("'s childhood home is", " grew up")  # read in code: still the question as written
    read = generate_answer(fake, "Where did Marisol Okonkwo grow up?", club, rewritten_from=written)
    assert read.looked_up is not None and read.text == "Tamale" and read.original == written and read.llm_calls == 0


class Scripted(FakeGenerator):
    """Answers from a list, one per call, and keeps what each call was barred from."""

    def __init__(self, outputs: list[str], chat: bool = False) -> None:
        super().__init__(chat=chat)
        self.outputs, self.avoided = outputs, []

    def complete(self, prompt: str, *, max_tokens: int, stop=None, on_token=None, options=(), **held) -> str:
        self.avoided.append(tuple(held.get("avoid", ())))
        self.calls.append(("complete", prompt))
        return self.outputs.pop(0)

    def chat(self, messages, *, max_tokens: int, on_token=None, options=(), **held):
        return self.complete(self.render_chat(messages), max_tokens=max_tokens, **held)


def test_an_echoed_answer_is_asked_once_more_and_never_started_the_same_way() -> None:
    """"Susie" only repeats the question: the model is asked again, barred from starting
    with it, and its next choice stands; an echo again (or nothing) leaves the first one,
    two calls spent; an answer that is no echo is asked once."""
    text = "Natalie Wood played Susie Walker. Her younger sister Lana Wood is also an actress."
    doc = [Passage(source="wood.md", title="Natalie Wood", text=text, ordinal=0, char_start=0, char_end=len(text))]
    question = "Whose sister played Susie in Miracle on 34th Street?"
    for chat in (False, True):
        fake = Scripted([" Susie", " Lana Wood"], chat=chat)
        answer = generate_answer(fake, question, doc)
        assert (answer.text, answer.reasked, answer.llm_calls) == ("Lana Wood", "Susie", 2)
        assert fake.avoided == [(), (" Susie",)] and not answer.supported  # a second choice is not vouched for
    again = generate_answer(Scripted([" Susie", " Susie Walker"]), question, doc)  # "Susie Walker" is no echo
    assert again.text == "Susie Walker" and again.reasked == "Susie"
    stuck = generate_answer(Scripted([" Susie", " Miracle"]), question, doc)
    assert (stuck.text, stuck.reasked, stuck.llm_calls) == ("Susie", "", 2) and stuck.echoed
    once = Scripted([" Lana Wood"])
    assert generate_answer(once, question, doc).llm_calls == 1 and once.avoided == [()]


def test_two_fed_titles_offered_as_a_or_b_are_the_only_answers() -> None:
    """"Did … sing with A or B?" has no comma to bound its sides; the fed titles do (.sides)."""
    fake = FakeGenerator(output=" The Four Seasons")
    docs = [Passage(source=f"{i}.md", title=title, text=f"{title} is a band.", ordinal=0, char_start=0, char_end=9)
            for i, title in enumerate(["Hellogoodbye", "The Four Seasons (band)"])]  # fmt: skip
    answer = generate_answer(fake, "Did Franki Valli sing with Hellogoodbye or The Four Seasons?", docs)
    assert fake.options == ("Hellogoodbye", "The Four Seasons") and answer.text == "The Four Seasons"


def test_the_question_s_own_options_are_scored_with_a_lean_against_yes() -> None:
    """yes / no and "A or B" go to the model with a prior per option (llm/choice.py scores
    each whole): ``no_bias`` for "no"; a year's options are the model's greedy pick; with
    ``no_bias`` None, every choice is."""
    fake = FakeGenerator(output=" no")
    text = "Ed Wood was an American filmmaker. Scott Derrickson is an American director."
    doc = Passage(source="w.md", title="Ed Wood", text=text, ordinal=0, char_start=0, char_end=len(text))
    generate_answer(fake, "Were Ed Wood and Scott Derrickson both poets?", [doc], readers=())
    assert fake.options == ("yes", "no") and fake.prior == (0.0, 1.3)
    generate_answer(fake, "Were Ed Wood and Scott Derrickson both poets?", [doc], readers=(), no_bias=0.5)
    assert fake.prior == (0.0, 0.5)
    generate_answer(fake, "Who was born first, Ed Wood or Scott Derrickson?", [doc], readers=())
    assert fake.options == ("Ed Wood", "Scott Derrickson") and fake.prior == (0.0, 0.0)
    generate_answer(fake, "Were Ed Wood and Scott Derrickson both poets?", [doc], readers=(), no_bias=None)
    assert fake.options == ("yes", "no") and fake.prior == ()
    fake.no_bias = 4.0  # "auto" (the default): the model's own (LocalLLM.no_bias: models.fitted_no_bias)
    generate_answer(fake, "Were Ed Wood and Scott Derrickson both poets?", [doc], readers=())
    assert fake.prior == (0.0, 4.0)
