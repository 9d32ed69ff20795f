"""BM25 over a passage's title and text, summed as tantivy sums its two fields, from Milvus's lists.

tantivy scores ``title:w^2 text:w`` in one pass: ``TITLE_BOOST`` x the title's BM25 + the text's.
Milvus gives one ranked list per field, each cut at the depth asked, and a long query (q* is the
question plus a whole document, its "of" and "the" included) matches most passages in both: a
passage ranked 26th by its text and 1,029th by its title ("World Summit of Nobel Peace
Laureates") loses its title's share when the title list stops at 1,000 and falls out of a top 50
it belongs in. So the sum is made here, and a passage that one list left out while the other
ranks it high enough that the missing share could lift it into the top ``n`` gets that share
asked for by id (:func:`short_of`); a list shorter than its depth holds every match, so what it
left out scores 0 there. When a passage in neither list could still reach the top ``n`` (both
lists cut where their last scores sum past the ``n``-th sum), the lists go deeper.
"""

from __future__ import annotations

Ranked = list[tuple[int, float]]  # (passage id, score), best first


def add(title: Ranked, text: Ranked, boost: float) -> dict[int, float]:
    """Each passage's ``boost`` x title score + text score over what the two lists hold."""
    scores = {pid: boost * score for pid, score in title}
    for pid, score in text:
        scores[pid] = scores.get(pid, 0.0) + score
    return scores


def short_of(
    title: Ranked, text: Ranked, depths: tuple[int, int], n: int, boost: float
) -> tuple[list[int], list[int], bool]:
    """(passages whose title score is missing, passages whose text score is missing, whether a
    passage in neither list could reach the top ``n``) for the sum of the two lists: each
    side's missing score is at most its list's last score, and only a list as long as its
    depth (``depths``: title's, text's) may have left one out. The missing scores of the
    first two are asked for by id; the third needs deeper lists."""
    scores = add(title, text, boost)
    floor = sorted(scores.values(), reverse=True)[n - 1] if len(scores) >= n else float("-inf")
    in_title, in_text = dict(title), dict(text)
    title_cap = boost * title[-1][1] if title and len(title) >= depths[0] else 0.0
    text_cap = text[-1][1] if text and len(text) >= depths[1] else 0.0
    no_title = [p for p in in_text if p not in in_title and title_cap > 0 and scores[p] + title_cap >= floor]
    no_text = [p for p in in_title if p not in in_text and text_cap > 0 and scores[p] + text_cap >= floor]
    unseen = title_cap + text_cap  # the most a passage in neither list can score
    return no_title, no_text, unseen > 0 and unseen >= floor


def top(scores: dict[int, float], n: int) -> Ranked:
    """The ``n`` best, ties by passage id (tantivy breaks them by document address, in id order)."""
    return sorted(scores.items(), key=lambda item: (-item[1], item[0]))[:n]
