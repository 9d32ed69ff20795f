"""Batches on the ONNX export: longest first, at most `rows` texts and TOKEN_BUDGET padded tokens,
no text padded to more than twice its length."""

from drrag_cli.index.onnx_run import PADDED_AT_MOST, TOKEN_BUDGET, _batches


def test_long_texts_go_in_small_batches_and_short_ones_fill_up_to_rows() -> None:
    assert TOKEN_BUDGET == 2048  # the sizes below
    lengths = [256] * 20 + [16] * 100
    batches = _batches(list(range(len(lengths))), lengths, 32)
    assert [len(b) for b in batches] == [8, 8, 4, 32, 32, 32, 4]  # no short text padded to 256
    assert sorted(i for b in batches for i in b) == list(range(len(lengths)))
    assert all(len(b) * lengths[b[0]] <= TOKEN_BUDGET for b in batches)


def test_a_text_longer_than_the_budget_still_gets_its_own_batch() -> None:
    assert _batches([0, 1], [TOKEN_BUDGET + 5, 3], 32) == [[0], [1]]


def test_a_much_shorter_text_runs_apart_from_a_long_one() -> None:
    """A question's q* texts: 246 and 99 tokens padded into one run cost 85 ms, apart 54 ms."""
    assert _batches([0, 1], [246, 99], 32) == [[0], [1]]
    assert _batches([0, 1, 2], [164, 159, 90], 32) == [[0, 1, 2]]  # 90 >= 0.5 * 164
    assert PADDED_AT_MOST == 0.5
