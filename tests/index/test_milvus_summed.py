"""The two-field BM25 sum made from Milvus's per-field lists (pure logic; the backends compare
whole lists in test_backend_contract.py)."""

from __future__ import annotations

from drrag_cli.index.milvus.summed import add, short_of, top


def test_add_boosts_the_title_and_sums() -> None:
    assert add([(1, 3.0), (2, 1.0)], [(2, 5.0), (3, 4.0)], 2.0) == {1: 6.0, 2: 7.0, 3: 4.0}


def test_a_list_shorter_than_its_depth_left_nothing_out() -> None:
    title, text = [(1, 3.0)], [(2, 5.0), (3, 4.0)]
    assert short_of(title, text, (10, 10), 1, 2.0) == ([], [], False)


def test_a_cut_list_asks_for_what_could_reach_the_top() -> None:
    # the title list stopped at its depth (2), its last score 1.0: a passage only the text list
    # holds may lack up to 2 x 1.0 of title score. Sums: 1 -> 10, 7 -> 9, 8 -> 1; the 2nd best is
    # 9, so 7 (9 + 2 >= 9) is asked for, 8 (1 + 2) is not; the text list was not cut, so what it
    # lacks scores 0 there and nothing is asked of it
    title = [(1, 3.0), (2, 1.0)]
    text = [(1, 4.0), (7, 9.0), (8, 1.0)]
    assert short_of(title, text, (2, 100), 2, 2.0) == ([7], [], False)
    assert short_of(title, text, (2, 3), 2, 2.0) == ([7], [], False)  # text cut too: 2 (2 + 1 < 9) still out of reach


def test_both_lists_cut_where_a_passage_in_neither_could_reach_the_top() -> None:
    # title cut at 2 (last 2.5, x 2 = 5), text cut at 2 (last 3.0): a passage in neither may score
    # up to 8, past the 2nd best sum (5): the lists must go deeper
    title, text = [(1, 3.0), (2, 2.5)], [(1, 4.0), (3, 3.0)]
    assert short_of(title, text, (2, 2), 2, 2.0)[2] is True
    assert short_of(title, text, (3, 3), 2, 2.0)[2] is False  # lists shorter than their depth hold every match


def test_top_breaks_ties_by_passage_id() -> None:
    assert top({5: 1.0, 3: 1.0, 9: 2.0}, 2) == [(9, 2.0), (3, 1.0)]
