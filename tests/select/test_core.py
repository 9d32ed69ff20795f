"""The selection core's CFS rule with more than one positive per static document, and its default."""

from drrag_cli.select.core import cfs_select, fill_barren, kept, resolve_k1, resolve_per_static


def test_each_static_document_keeps_its_first_positive_before_any_keeps_a_second() -> None:
    """With room for two more documents and ``per_static=2``, the first static document's
    second positive must not crowd out the second static document's first one."""
    walks = [[(10, 1), (11, 2)], [(20, 1), (21, 2)]]
    probs = {(0, 10): 0.9, (0, 11): 0.8, (1, 20): 0.2, (1, 21): 0.7}
    both = cfs_select([1, 2], walks, probs, k=4, threshold=0.5, per_static=2)
    assert sorted(d.pid for d in kept(both)) == [10, 21]
    assert [d.decision for d in both[0]] == ["kept", "context full"]
    one = cfs_select([1, 2], walks, probs, k=5, threshold=0.5, per_static=2)  # a free slot: the second positive
    assert sorted(d.pid for d in kept(one)) == [10, 11, 21]
    single = cfs_select([1, 2], walks, probs, k=5, threshold=0.5)
    assert sorted(d.pid for d in kept(single)) == [10, 21]
    assert [d.decision for d in single[0]] == ["kept", "not needed (static doc satisfied)"]


def test_per_static_auto_is_one_up_to_k_4_then_k1() -> None:
    assert [resolve_per_static(k, resolve_k1(k)) for k in (1, 3, 4, 5, 6, 8)] == [1, 1, 1, 3, 3, 4]
    assert resolve_per_static(6, 3, 1) == 1 and resolve_per_static(4, 2, 2) == 2  # set: as set


def test_beside_a_low_scored_named_hop_the_walk_keeps_its_positive_in_a_free_slot() -> None:
    """A named hop the classifier scores low keeps its slot, and ``beside_named`` adds the
    walk's first positive after the other walks had theirs, never past k."""
    walks = [[(10, 1), (11, 2), (12, 3)], [(20, 1), (21, 2)]]
    probs = {(0, 10): 0.1, (0, 11): 0.2, (0, 12): 0.9, (1, 20): 0.3, (1, 21): 0.8}
    sure = {(0, 10): 1}
    plain = cfs_select([1, 2], walks, probs, k=5, threshold=0.5, sure=sure)
    assert [d.pid for d in kept(plain)] == [10, 21]
    beside = cfs_select([1, 2], walks, probs, k=5, threshold=0.5, sure=sure, beside_named=True)
    assert sorted(d.pid for d in kept(beside)) == [10, 12, 21]
    full = cfs_select([1, 2], walks, probs, k=4, threshold=0.5, sure=sure, beside_named=True)
    assert sorted(d.pid for d in kept(full)) == [10, 21]  # the other walk's own positive came first
    sure_named = {(0, 12): 1}  # the named hop is a positive itself: nothing more
    one = cfs_select([1, 2], walks, probs, k=5, threshold=0.5, sure=sure_named, beside_named=True)
    assert sorted(d.pid for d in kept(one)) == [12, 21]


def test_a_doubted_named_hop_yields_its_walk_to_a_confident_candidate() -> None:
    """``named_yield``: the named hop (0.1, below the threshold) goes after the walk's first
    candidate scored at least 0.8, and so does one the classifier accepts when that candidate
    is 0.4 surer still ("Yeah! (Fuel song)", 0.50, before a gold page at 0.97); a named hop
    accepted with less between them, or a candidate it is not confident of, changes nothing."""
    walks = [[(10, 1), (11, 2), (12, 3)], [(20, 1), (21, 2)]]
    probs = {(0, 10): 0.1, (0, 11): 0.6, (0, 12): 0.9, (1, 20): 0.3, (1, 21): 0.8}
    sure = {(0, 10): 1}
    yielded = cfs_select([1, 2], walks, probs, k=4, threshold=0.5, sure=sure, named_yield=0.8)
    assert [d.pid for d in kept(yielded)] == [12, 21]
    assert [(d.pid, d.decision) for d in yielded[0]][:2] == [(12, "kept"), (10, "not needed (static doc satisfied)")]
    assert [d.pid for d in kept(cfs_select([1, 2], walks, probs, k=4, threshold=0.5, sure=sure))] == [10, 21]
    accepted = {**probs, (0, 10): 0.55}
    assert [d.pid for d in kept(cfs_select([1, 2], walks, accepted, k=4, threshold=0.5, sure=sure,
                                           named_yield=0.8))] == [10, 21]  # fmt: skip
    far = {**probs, (0, 10): 0.5, (0, 12): 0.97}
    assert [d.pid for d in kept(cfs_select([1, 2], walks, far, k=4, threshold=0.5, sure=sure,
                                           named_yield=0.8))] == [12, 21]  # fmt: skip
    unsure = {**probs, (0, 12): 0.7}
    assert [d.pid for d in kept(cfs_select([1, 2], walks, unsure, k=4, threshold=0.5, sure=sure,
                                           named_yield=0.8))] == [10, 21]  # fmt: skip


def test_a_relation_hop_is_firm_it_yields_to_no_confident_candidate() -> None:
    """``firm``: a walk led by a relation hop ("directed by Fred Guiol" for "the director",
    scored 0.05 from the film's page) keeps it before a candidate scored 0.99 ("Fallen City"):
    the classifier, trained on HotpotQA and MuSiQue pairs, does not know a film's director."""
    walks = [[(10, 1), (11, 2)], [(20, 1)]]
    probs = {(0, 10): 0.05, (0, 11): 0.99, (1, 20): 0.8}
    sure = {(0, 10): 1}
    firm = cfs_select([1, 2], walks, probs, k=4, threshold=0.5, sure=sure, named_yield=0.8, firm={(0, 10)})
    assert [d.pid for d in kept(firm)] == [10, 20]
    assert [d.pid for d in kept(cfs_select([1, 2], walks, probs, k=4, threshold=0.5, sure=sure,
                                           named_yield=0.8))] == [11, 20]  # fmt: skip


def test_a_confident_candidate_goes_before_a_less_probable_first_keep() -> None:
    """``confident``: the walk's most probable candidate (0.95) is kept before its first
    positive (0.5) when it beats it by the margin; a candidate below the bar, or one that
    does not beat the keep by the margin, changes nothing; a named hop gives way only to
    another named hop."""
    walks = [[(10, 1), (11, 2), (12, 3)], [(20, 1)]]
    probs = {(0, 10): 0.5, (0, 11): 0.2, (0, 12): 0.95, (1, 20): 0.8}
    assert [d.pid for d in kept(cfs_select([1, 2], walks, probs, k=4, threshold=0.4))] == [10, 20]
    moved = cfs_select([1, 2], walks, probs, k=4, threshold=0.4, confident=0.9)
    assert [d.pid for d in kept(moved)] == [12, 20]
    assert [(d.pid, d.decision) for d in moved[0]][:2] == [(12, "kept"), (10, "not needed (static doc satisfied)")]
    for changed in ({(0, 12): 0.85}, {(0, 10): 0.93}):  # under the bar; within the margin
        same = cfs_select([1, 2], walks, {**probs, **changed}, k=4, threshold=0.4, confident=0.9)
        assert [d.pid for d in kept(same)] == [10, 20]
    named = cfs_select([1, 2], walks, probs, k=4, threshold=0.4, confident=0.9, sure={(0, 10): 1})
    assert [d.pid for d in kept(named)] == [10, 20]
    both = cfs_select([1, 2], walks, probs, k=4, threshold=0.4, confident=0.9, sure={(0, 10): 1, (0, 12): 2})
    assert [d.pid for d in kept(both)] == [12, 20]


def test_a_barren_walk_keeps_its_likeliest_linked_candidate_in_a_free_slot() -> None:
    """``fill_barren``: a walk that kept nothing keeps its most probable candidate that its
    static document links to, scored at least ``fill``; never past k, never a walk that kept
    something or one left out of ``walks``."""
    walks = [[(10, 1), (11, 2), (12, 3)], [(20, 1), (21, 2)]]
    probs = {(0, 10): 0.3, (0, 11): 0.15, (0, 12): 0.05, (1, 20): 0.8, (1, 21): 0.3}
    linked = {(0, 11), (0, 12), (1, 21)}

    def filled(fill: float, k: int = 4, only: set[int] | None = None) -> list[int]:
        steps = cfs_select([1, 2], walks, probs, k=k, threshold=0.4)
        context = {1, 2} | {d.pid for d in kept(steps)}
        added = fill_barren(steps, linked, fill, k, context, walks=only)
        assert [d.pid for d in added] == [d.pid for d in kept(steps) if d.pid != 20]
        return sorted(d.pid for d in kept(steps))

    assert filled(0.0) == [20]
    assert filled(0.1) == [11, 20]
    assert filled(0.04) == [11, 20]  # the most probable linked one
    assert filled(0.2) == [20]
    assert filled(0.1, k=3) == [20]
    assert filled(0.1, only={1}) == [20]
