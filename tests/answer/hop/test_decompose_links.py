"""Decomposed answers over linked notes: a link beside the description, or by alias, names the bridge."""

from __future__ import annotations

from drrag_cli.answer.hop.decompose import bridged, named_bridge
from tests.answer.hop.test_decompose import selected


def test_an_explicit_link_nearer_the_description_outranks_a_plain_name() -> None:
    """The club note names Peter Hale (the dynamic hop CFS found through it) and links
    Marisol's note: "the current chair" is the one the link stands beside, when the note
    says every word of the description."""
    question = "Where did the current chair of the Elmstead garden club grow up?"
    club = selected(
        1, "garden-club.md", "Elmstead garden club",
        "Its current chair is [[Marisol Okonkwo]], who took over from Peter Hale in 2021.",
    )  # fmt: skip
    marisol = selected(4, "Marisol Okonkwo.md", "Marisol Okonkwo", "Marisol grew up in Porto.")
    peter = selected(7, "peter-hale.md", "Peter Hale", "Peter Hale was born in Leeds.", via=1)
    asked, bridge = bridged(question, [club, marisol, peter])
    assert (asked, bridge.source) == ("Where did Marisol Okonkwo grow up?", "Marisol Okonkwo.md")
    # a markdown link by path counts the same; a link farther from the description does not
    by_path = club.passage.text.replace("[[Marisol Okonkwo]]", "[Marisol](Marisol%20Okonkwo.md)")
    club_md = selected(1, "garden-club.md", "Elmstead garden club", by_path)
    assert bridged(question, [club_md, marisol, peter])[1].source == "Marisol Okonkwo.md"
    # the club note does not say "previous": CFS's named hop stays (it is him)
    previous = "Where was the previous chair of the Elmstead garden club born?"
    assert bridged(previous, [club, marisol, peter])[0] == "Where was Peter Hale born?"
    far = "Its current chair is Peter Hale, since 2021; before him it was [[Marisol Okonkwo]]."
    club_far = selected(1, "garden-club.md", "Elmstead garden club", far)
    assert bridged(question, [club_far, marisol, peter])[0] == "Where did Peter Hale grow up?"



def test_a_link_by_alias_names_the_bridge() -> None:
    """"[[Marisol]]" names no title: the note's front matter alias makes it the link CFS
    followed, and the question is asked about her by her title."""
    question = "Where was the current chair of the Elmstead garden club born?"
    club = selected(1, "club.md", "Elmstead garden club", "Its current chair is [[Marisol]], since 2021.")
    marisol = selected(4, "marisol-okonkwo.md", "Marisol Okonkwo", "Born in Porto.", via=1)
    assert named_bridge([club, marisol]) is None  # no title, no alias: no bridge
    aliases = {"marisol-okonkwo.md": ("Marisol", "M. Okonkwo")}
    assert named_bridge([club, marisol], aliases).entity == "Marisol Okonkwo"
    assert bridged(question, [club, marisol], aliases)[0] == "Where was Marisol Okonkwo born?"
    notes = selected(6, "2022-offsite.md", "Offsite 2022: notes", "We met in Ghent.", via=1)
    by_file = selected(1, "club.md", "Elmstead garden club", "Its current chair chose [[2022-offsite]].")
    assert named_bridge([by_file, notes]) is None  # a file name names a document, not an entity
