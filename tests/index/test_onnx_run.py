"""Index batches on the ONNX export: longest first, at most `rows` texts and TOKEN_BUDGET padded tokens."""

from drrag_cli.index.onnx_run import TOKEN_BUDGET, _batches


def test_long_texts_go_in_small_batches_and_short_ones_fill_up_to_rows() -> None:
    assert TOKEN_BUDGET == 2048  # the sizes below
    lengths = [256] * 20 + [16] * 100
    batches = _batches(list(range(len(lengths))), lengths, 32)
    assert [len(b) for b in batches] == [8, 8, 8, 32, 32, 32]  # the third: 4 long + 4 short, padded to 256
    assert sorted(i for b in batches for i in b) == list(range(len(lengths)))
    assert all(len(b) * lengths[b[0]] <= TOKEN_BUDGET for b in batches)


def test_a_text_longer_than_the_budget_still_gets_its_own_batch() -> None:
    assert _batches([0, 1], [TOKEN_BUDGET + 5, 3], 32) == [[0], [1]]
