"""The corpus's own links: found at index time, kept per generation, read by CFS."""

from __future__ import annotations

from pathlib import Path

from drrag_cli.config import Settings
from drrag_cli.index.api import Index
from drrag_cli.index.links import (
    DocRef,
    LinkFinder,
    core_title,
    explicit_links,
    find_links,
    links_to,
    title_forms,
)
from drrag_cli.select.features import link_order
from drrag_cli.text.fence import unlinked

DOCS = [
    DocRef(1, "projects/heron/overview.md", "Heron: project overview"),
    DocRef(2, "people/tobias-lindqvist.md", "Tobias Lindqvist"),
    DocRef(3, "notes/ideas.txt", "ideas"),
    DocRef(4, "wiki/clients.md", "Clients"),
    DocRef(5, "films/heron.md", "Heron (film)"),
    DocRef(6, "misc/ab.md", "Ab"),
]


def test_markdown_wiki_links_and_title_mentions() -> None:
    text = "| Lead engineer | Tobias Lindqvist | see [the register](../../wiki/clients.md) and [[ideas]]"
    assert find_links(DOCS, [(10, 1, "projects/heron/overview.md", text)]) == [
        (10, 4, "link"),
        (10, 3, "link"),
        (10, 2, "mention"),
    ]


def test_mentions_are_whole_words_and_one_word_titles_need_a_capital() -> None:
    finder = LinkFinder(DOCS)
    assert finder.links("x.md", "the heron flew; an ab test", own=0) == []  # lowercase one-word titles
    assert finder.links("x.md", "Heron was filmed in 1999", own=0) == [(1, "mention"), (5, "mention")]
    assert finder.links("x.md", "Tobiasz Lindqvistson", own=0) == []  # not whole words
    assert finder.links("x.md", "tobias lindqvist said", own=0) == [(2, "mention")]  # two words: any case
    assert finder.links("people/tobias-lindqvist.md", "Tobias Lindqvist", own=2) == []  # never itself
    assert finder.links("x.md", "[site](https://example.com/clients.md) [[nowhere]]", own=0) == []


def test_explicit_links_and_what_they_point_to() -> None:
    text = "see [[Marisol Okonkwo|Marisol]], [the plan](../plans/q3%20plan.md) and [web](https://x.org/a.md)"
    assert explicit_links(text) == [(4, "Marisol Okonkwo"), (33, "../plans/q3%20plan.md")]
    assert links_to("Marisol Okonkwo", "people/marisol.md", "Marisol Okonkwo")  # a wiki name: the title
    assert links_to("../plans/q3%20plan.md", "plans/q3 plan.md", "Q3")  # a path: the file name
    assert not links_to("Peter Hale", "people/marisol.md", "Marisol Okonkwo")
    finder = LinkFinder([*DOCS, DocRef(7, "plans/q3 plan.md", "Q3")])
    assert finder.links("notes/a.md", text, own=0) == [(7, "link")]  # the index reads %20 as a space
    # a vault-relative wiki path ([[people/tobias-lindqvist]]) or its file name alone
    assert finder.links("x.md", "see [[people/tobias-lindqvist]]", own=0) == [(2, "link")]
    assert finder.links("x.md", "see [[elsewhere/tobias-lindqvist.md]]", own=0) == [(2, "link")]


def test_unlinked_shows_the_words_a_reader_sees() -> None:
    assert unlinked("chair is [[Marisol Okonkwo]], see [[Ana Ruiz|Ana]] and [[Plan#Goals]]") == (
        "chair is Marisol Okonkwo, see Ana and Plan"
    )
    assert unlinked("the [Q3 plan](plans/q3%20plan.md) ![map](map.png) [not a link] (x)") == (
        "the Q3 plan map [not a link] (x)"
    )


def test_core_title() -> None:
    assert core_title("Heron (film)") == "Heron"
    assert core_title("Heron: project overview") == "Heron"
    assert core_title("(1999)") == "(1999)"


def test_title_forms_drop_a_parenthesis_and_a_clubs_suffix_but_keep_a_colons_part() -> None:
    assert title_forms("Nottingham Forest F.C.") == ["Nottingham Forest F.C.", "Nottingham Forest"]
    assert title_forms("Heron (film)") == ["Heron (film)", "Heron"]
    assert title_forms("Offsite 2022: notes") == ["Offsite 2022: notes"]  # a document, not a name


def test_the_index_records_links_and_cfs_can_read_them(tmp_path: Path) -> None:
    corpus = tmp_path / "kb"
    (corpus / "people").mkdir(parents=True)
    (corpus / "heron.md").write_text("# Heron\n\nThe lead engineer of Heron is Tobias Lindqvist.\n")
    (corpus / "people" / "tobias.md").write_text("# Tobias Lindqvist\n\nTobias was born in Uppsala.\n")
    (corpus / "index.md").write_text("# Index\n\nSee [the profile](people/tobias.md) and [[heron]].\n")
    settings = Settings().replace({"index.path": str(tmp_path / "ix")})
    report = Index.build([corpus], settings)
    assert report.links == 3
    index = Index.open(settings)
    by_source = {p.source.rsplit("/", 1)[-1]: pid for pid, p in index.passages(range(1, 10)).items()}
    linked = index.linked([by_source["heron.md"], by_source["index.md"]])
    assert linked[by_source["heron.md"]] == [[by_source["tobias.md"]]]
    assert sorted(linked[by_source["index.md"]]) == sorted([[by_source["tobias.md"]], [by_source["heron.md"]]])
    assert index.linked([by_source["tobias.md"]]) == {}
    assert index.siblings([by_source["tobias.md"]]) == {by_source["tobias.md"]: [by_source["tobias.md"]]}


def test_a_wiki_link_by_a_front_matter_alias_is_a_link(tmp_path: Path) -> None:
    """Obsidian resolves [[Marisol]] through the note's `aliases`; so does the index (an index
    built before reads its notes again: loaders.READERS 7, test_incremental.py)."""
    corpus = tmp_path / "vault"
    corpus.mkdir()
    (corpus / "marisol-okonkwo.md").write_text(
        "---\naliases: [Marisol]\n---\n# Marisol Okonkwo\n\nHydrologist at the regional water board.\n"
    )
    (corpus / "club.md").write_text("# Elmstead garden club\n\nIts current chair is [[Marisol]].\n")
    settings = Settings().replace({"index.path": str(tmp_path / "ix")})
    assert Index.build([corpus], settings).links == 1
    index = Index.open(settings)
    by_source = {p.source.rsplit("/", 1)[-1]: pid for pid, p in index.passages(range(1, 5)).items()}
    assert index.linked([by_source["club.md"]]) == {by_source["club.md"]: [[by_source["marisol-okonkwo.md"]]]}
    assert index.aliases(list(by_source.values())) == {by_source["marisol-okonkwo.md"]: ("Marisol",)}
    assert LinkFinder([DocRef(1, "m.md", "Marisol Okonkwo", ("Marisol",))]).links("c.md", "[[marisol]]", 0) == [
        (1, "link")
    ]


def test_link_order_puts_the_entity_the_question_points_at_first() -> None:
    text = "| Hannah Osei | product design |\n| Tobias Lindqvist | lead engineer |\n| Priya Raman | research |"
    linked = [(1, "Hannah Osei"), (2, "Priya Raman"), (3, "Tobias Lindqvist")]
    order = link_order("In which city was the lead engineer of Project Heron born?", "Heron", text, linked, {2: 0})
    assert order == [3, 2, 1]  # named next to "engineer" first, then by q* rank, then link order
