"""Named hops (select/bridges.py): pure text rules, checked on lines like the sample corpus's."""

from __future__ import annotations

from drrag_cli.select import bridges
from drrag_cli.select.core import cfs_select, kept

TERN = "In which city is the headquarters of the client for which Project Tern was built?"
RETRO = (
    ":Facilitator: Maren Okafor :Participants: Maren Okafor, Priya Raman :Status: Project cancelled "
    "Tern was a multilingual customer-service assistant that Halyard Labs built for Nortada Ferries "
    "between September 2019 and March 2020."
)
VISIT = "Day 1. Met the customer-service team at the Nortada Ferries headquarters in Aveiro."


def test_relation_leaves_out_the_names_the_question_holds() -> None:
    assert bridges.relation(TERN) == {"citi", "headquart", "client", "built"}


def test_names_in_orders_names_by_their_distance_to_the_question_words() -> None:
    names = dict(bridges.names_in(RETRO, TERN))
    assert names["Halyard Labs"] < names["Nortada Ferries"] <= bridges.NEAR
    assert "Maren Okafor" not in names  # far from "built"
    assert "September" not in names and "March" not in names  # months are not bridges


def test_a_do_questions_closing_verb_points_only_in_a_document_naming_what_it_names() -> None:
    question = "How much does the replacement NAS from the Kortrijk supplier cost?"
    profile = "If something costs more than 500 euros, talk to Ruben first. If it costs less, talk to Sofie Janssens."
    assert bridges.pointed_units(question, "Ruben De Smet", [profile]) == []  # "costs" meets "cost", yet no NAS
    assert bridges.closing_verb(question) == {"cost"} and bridges.closing_verb(TERN) == set()
    supplier = "Our supplier for disks is Fennick & Daughters."
    assert bridges.pointed_units(question, "Ruben De Smet", [supplier]) == [supplier]  # the description points
    quote = "The supplier in Kortrijk sent the quote for the replacement NAS, via Wout Peeters."
    assert bridges.pointed_units(question, "Quote", [quote]) == [quote]
    assert bridges.pointed_units(TERN, "Tern retrospective", [RETRO])  # Tern is named in the title


def test_a_name_may_join_its_words_with_an_ampersand_or_a_particle() -> None:
    question = "In which town is the supplier of the products for the autumn window display based?"
    note = "The products for the autumn window display come from our supplier Fennick & Daughters."
    assert "Fennick & Daughters" in dict(bridges.names_in(note, question))
    table = "| Supplier | Based in | |---|---| | Fennick & Daughters | Whitby |"
    assert bridges.about("Fennick & Daughters", table)
    painter = "The portrait in the hall was painted by Vincent van Gogh in 1887."
    assert "Vincent van Gogh" in dict(bridges.names_in(painter, "In which town was the painter of the portrait born?"))


def test_names_hop_needs_the_candidate_to_be_about_the_name_or_to_add_what_is_asked() -> None:
    units = bridges.pointed_units(TERN, "Tern retrospective", [RETRO])
    adds = bridges.missing(TERN, "Tern retrospective", [RETRO])
    assert adds == {"citi", "headquart", "client"}
    common = {"Halyard Labs"}.__contains__  # a name most notes hold
    assert bridges.names_hop(TERN, units, adds, "2020-02-nortada-visit", VISIT, common) == ("Nortada Ferries", 2)
    assert bridges.names_hop(TERN, units, adds, "Lunch", "Halyard Labs had lunch.", common) is None
    profile = "# Maren Okafor\n\nMaren Okafor is a founder."
    name, gap = bridges.names_hop(TERN, units, adds, "Maren Okafor", profile, common)
    assert name == "Maren Okafor" and gap > 2  # a note's own title is a link, walked after nearer names


HOWTO = (
    "# How to restore files from the nightly backup This how-to explains how to get back files. "
    "All backups are made with `ebbtide`, our wrapper around restic. Do not call restic directly: "
    "ebbtide knows where the repositories are. You need membership of the `backup-operators` group."
)
OWNER = "Who owns the command-line tool that the how-to for restoring files from the nightly backup tells you to use?"


def test_a_document_whose_lines_do_not_point_leads_on_by_the_code_word_it_is_about() -> None:
    title = "How to restore files from the nightly backup"
    assert bridges.topic_name(OWNER, title, [HOWTO]) == "ebbtide"  # twice, `backup-operators` once
    units = bridges.pointed_units(OWNER, title, [HOWTO])
    assert units == ["All backups are made with `ebbtide`, our wrapper around restic."]  # "you" points nowhere
    table = "| Tool | What it does | Owner | |---|---|---| | `ebbtide` | Backup wrapper around restic | Dmitri Volkov |"
    assert bridges.names_hop(OWNER, units, set(), "Onboarding", table) == ("ebbtide", 4)
    tie = ["Use `alpha` and `bravo`, then `alpha` or `bravo`."]
    assert bridges.topic_name(OWNER, title, tie) == ""  # no topic


def test_a_table_row_or_heading_makes_a_note_about_a_name() -> None:
    assert bridges.about("Kestrel Rail", "| Kestrel Rail | Regional rail operator | Linz |")
    assert bridges.about("Inês Carvalho", "# Inês Carvalho\n\nPlays the cello.")
    assert not bridges.about("Kestrel Rail", "We met people from Kestrel Rail.")


def test_one_capitalised_word_is_not_a_named_hop() -> None:
    question = "Which instrument does the lead of Project Plover play?"
    units = ["Lead: Hannah, with Inês Carvalho on data."]
    assert bridges.names_hop(question, units, set(), "Notes", "Hannah is away.") is None
    assert bridges.names_hop(question, units, set(), "Inês Carvalho", "Inês Carvalho plays.")[0] == "Inês Carvalho"


def test_cfs_walks_named_hops_first_and_keeps_them_below_the_threshold() -> None:
    walks = [[(10, 1), (11, 2), (12, 3)]]
    probs = {(0, 10): 0.9, (0, 11): 0.1, (0, 12): 0.2}
    plain = kept(cfs_select([1], walks, probs, k=4, threshold=0.5))
    assert [d.pid for d in plain] == [10]
    named = kept(cfs_select([1], walks, probs, k=4, threshold=0.5, sure={(0, 12): 1, (0, 11): 3}))
    assert [d.pid for d in named] == [12]  # the nearest name first; one per static document


def test_a_row_of_a_table_on_one_line_is_about_its_first_cell() -> None:
    one_line = "# Clients | Client | City | |---|---| | Nortada Ferries | Aveiro | | Kestrel Rail | Linz |"
    assert bridges.about("Kestrel Rail", one_line) and bridges.about("Nortada Ferries", one_line)
    assert not bridges.about("Linz", one_line)


def test_most_added_prefers_the_passage_that_says_what_the_first_hop_lacks() -> None:
    """The visit notes' passage about the pilot is closer to the whole Tern question; the
    one naming the headquarters adds what the retrospective lacks."""
    adds = bridges.missing(TERN, "Tern retrospective", [RETRO])
    assert adds == {"citi", "headquart", "client"}
    texts = ["Workshop on the assistant pilot with their IT lead.", VISIT]
    assert bridges.most_added([7, 8], [0.61, 0.42], texts, adds) == 8
    assert bridges.most_added([7, 8], [0.61, 0.42], texts, set()) == 7  # nothing to add: the closest
    tools = ["Internal tools and their owners: each tool has one owner.", "| Tool | Owner | | `ebbtide` | Dmitri |"]
    assert bridges.most_added([7, 8], [0.61, 0.42], tools, {"tool"}) == 7
    assert bridges.most_added([7, 8], [0.61, 0.42], tools, {"tool"}, "ebbtide") == 8  # the passage naming the bridge
    profile = ["Senior data engineer, Porto office lead.", "She plays the cello in an amateur orchestra."]
    adds = bridges.missing("Which musical instrument does the lead of Project Plover play?", "Plover", ["Plover lead"])
    assert "play" in adds and bridges.most_added([7, 8], [0.61, 0.42], profile, adds) == 8  # "play" in "plays"


def test_an_explicit_link_beside_the_question_s_words_leads_to_its_note() -> None:
    """[[Marisol]] names no title; the note's alias, file name or title makes it a link."""
    question = "Where was the current chair of the Elmstead garden club born?"
    units = ["its current chair is [[Marisol]], who took over from Peter Hale in 2021."]
    assert bridges.linked_gap(question, units, "notes/marisol-okonkwo.md", "Marisol Okonkwo", ("Marisol",)) == (
        "Marisol Okonkwo", 2
    )
    assert bridges.linked_gap(question, units, "notes/marisol-okonkwo.md", "Marisol Okonkwo") is None  # no alias
    by_file = ["its current chair is [M. Okonkwo](../people/marisol-okonkwo.md)."]
    assert bridges.linked_gap(question, by_file, "people/marisol-okonkwo.md", "Marisol Okonkwo")[0] == "Marisol Okonkwo"
    far = ["its current chair is peter. " + "we grow beans and sell them every week. " * 3 + "[[Marisol]]"]
    assert bridges.linked_gap(question, far, "m.md", "Marisol Okonkwo", ("Marisol",)) is None  # too far to point
