"""Tables in the answer prompt (answer/tables.py): rows written out, cells read in code."""

from __future__ import annotations

from drrag_cli.answer.tables import lookup, passed_cell
from drrag_cli.text.tables import key_values, linearise, tables

REGISTER = (
    "# Client register *Snapshot.* | Client | Sector | Headquarters | Account owner | |---|---|---|---| "
    "| Stadsarchief Aalst | Public archive | Aalst, Belgium | Maren Okafor | "
    "| Kestrel Rail | Regional rail operator | Linz, Austria | Ruben De Smet | ## Notes per client"
)


def test_a_one_line_table_is_read_row_by_row() -> None:
    [(headers, rows, start, end)] = tables(REGISTER)
    assert headers == ["Client", "Sector", "Headquarters", "Account owner"]
    assert rows[1] == ["Kestrel Rail", "Regional rail operator", "Linz, Austria", "Ruben De Smet"]
    assert REGISTER[start:].startswith("| Client") and REGISTER[end:].strip() == "## Notes per client"


def test_linearise_writes_each_row_with_its_headers() -> None:
    text = linearise(REGISTER)
    assert "Client: Kestrel Rail; Sector: Regional rail operator; Headquarters: Linz, Austria;" in text
    assert text.startswith("# Client register *Snapshot.* Client: Stadsarchief Aalst;")
    assert text.endswith("## Notes per client")
    assert linearise("a | b | not a table") == "a | b | not a table"
    multiline = "| a | b |\n|---|---|\n| 1 | 2 |\n\nafter"
    assert linearise(multiline) == "a: 1; b: 2.\n\nafter"


def test_lookup_reads_the_cell_the_question_asks_for() -> None:
    docs = [("Board update", "Kestrel Rail signed."), ("Client register", REGISTER)]
    found = lookup("In which city is Kestrel Rail headquartered?", docs)
    assert found is not None and (found.answer, found.column, found.document) == ("Linz, Austria", "Headquarters", 1)
    assert lookup("Who is the account owner of Kestrel Rail?", docs).answer == "Ruben De Smet"


def test_lookup_leaves_the_rest_to_the_model() -> None:
    docs = [("Client register", REGISTER)]
    assert lookup("What is Kestrel Rail?", docs) is None  # no column asked for
    assert lookup("In which city is Vellmar headquartered?", docs) is None  # no such row
    other = [("Old register", REGISTER.replace("Linz, Austria", "Graz, Austria")), *docs]
    assert lookup("In which city is Kestrel Rail headquartered?", other) is None  # two answers


def test_a_key_value_table_becomes_key_value_sentences() -> None:
    design = "# Design: Tidepool | | | |---|---| | **Author** | Priya Raman | | **Reviewers** | Tobias Lindqvist | "
    design += "## Problem"
    assert linearise(design) == "# Design: Tidepool Author: Priya Raman. Reviewers: Tobias Lindqvist. ## Problem"
    assert lookup("Who is the author of Tidepool?", [("Design", design)]) is None  # no headers to ask for


def test_who_wrote_reads_the_author_of_the_document_the_question_describes() -> None:
    design = "# Design: Tidepool | | | |---|---| | **Author** | Priya Raman | | **Reviewers** | Tobias Lindqvist | "
    changelog = "## 1.3.0 Added the Tidepool reranker (see its design document)."
    docs = [("Changelog", changelog), ("Design: Tidepool, a second-stage reranker", design)]
    question = "Who wrote the design document for the reranker that was added to Heron in version 1.3.0?"
    found = lookup(question, docs)
    assert found is not None and (found.answer, found.column, found.document) == ("Priya Raman", "Author", 1)
    assert lookup("Who is the author of Tidepool?", docs).answer == "Priya Raman"
    assert lookup("Who reviewed the Tidepool design?", docs).answer == "Tobias Lindqvist"
    assert lookup("When was the Tidepool design written?", docs) is None  # not "who"
    assert lookup("Who wrote the changelog?", docs) is None  # the changelog has no author row
    other = ("Design: Tidepool reranker, draft", design.replace("Priya Raman", "Jonas Weber"))
    assert lookup("Who wrote the Tidepool reranker design?", [*docs, other]) is None  # two authors, equally named


def test_who_owns_a_thing_a_document_mentions_is_not_that_documents_owner() -> None:
    howto = "# How to restore files | | | |---|---| | **Owner** | Jonas Weber | Use `ebbtide` to restore."
    docs = [("How to restore files from the nightly backup", howto)]
    question = "Who owns the command-line tool that the how-to for restoring files from the nightly backup uses?"
    assert lookup(question, docs) is None  # the tool's owner is asked, not the how-to's
    assert lookup("Who owns the how-to for restoring files?", docs).answer == "Jonas Weber"


def test_who_owns_a_row_reads_its_owner_column() -> None:
    tools = "| Tool | What it does | Owner | |---|---|---| | `heron-cli` | Search | Tobias Lindqvist | " \
        "| `ebbtide` | Backup wrapper | Dmitri Volkov |"
    found = lookup("Who owns ebbtide?", [("Onboarding", tools)])
    assert found is not None and (found.answer, found.column) == ("Dmitri Volkov", "Owner")
    assert lookup("Who uses ebbtide?", [("Onboarding", tools)]) is None  # no column for "uses"


def test_a_key_of_the_named_document_s_own_table_is_read() -> None:
    profile = (
        "Inês Carvalho",
        "# Inês Carvalho | | | |---|---| | **Role** | Senior data engineer, Porto office lead | "
        "| **Joined** | June 2021 | | **Languages** | Portuguese, English, Spanish | "
        "## Background Inês was born in Braga.",
    )
    other = ("Sofie Janssens", "| | | |---|---| | **Role** | Office and people manager | | **Joined** | May 2019 |")
    joined = lookup("When did Inês Carvalho join Halyard Labs?", [profile, other])
    assert joined is not None and (joined.answer, joined.row, joined.column) == ("June 2021", "Inês Carvalho", "Joined")
    assert lookup("Which languages does Inês Carvalho speak?", [profile]).answer == "Portuguese, English, Spanish"  # type: ignore[union-attr]
    assert lookup("What is Sofie Janssens's role?", [profile, other]).answer == "Office and people manager"  # type: ignore[union-attr]
    # a first name finds the one fed title that holds it; two such titles, none
    assert lookup("What is Inês's role?", [profile, other]).answer.startswith("Senior data engineer")  # type: ignore[union-attr]
    namesake = ("Inês Moreira", "| | | |---|---| | **Role** | Designer |")
    assert lookup("What is Inês's role?", [profile, namesake]) is None
    assert lookup("Where was Inês Carvalho born?", [profile]) is None  # no key for it: the sentence is read elsewhere


def test_a_plain_list_item_is_a_key_and_its_value() -> None:
    """"What is Amara's email?" over her note's "- Email: amara@example.org": Gemma answered
    "Amara Okafor"."""
    amara = ("Amara Okafor", "# Amara Okafor Amara Okafor is the data engineer on Kestrel. ## Contact "
             "- Email: amara@example.org - Desk: 3rd floor, room 312")  # fmt: skip
    assert key_values(amara[1]) == [("Email", "amara@example.org", "list"), ("Desk", "3rd floor, room 312", "list")]
    assert lookup("What is Amara's email?", [amara]).answer == "amara@example.org"  # type: ignore[union-attr]
    opening = ("Amara Okafor", "# Amara Okafor Amara Okafor is the data engineer on Kestrel.")  # another passage
    assert lookup("What is Amara's email?", [opening, amara]).answer == "amara@example.org"  # type: ignore[union-attr]
    # by a short name, the key must be all the question asks, and the possessive the name's own
    tidepool = ("Tidepool design", "# Tidepool design - **Author:** Priya Raman")
    assert lookup("Who is the Tidepool author?", [tidepool]).answer == "Priya Raman"  # type: ignore[union-attr]
    assert lookup("Where was the Tidepool author born?", [tidepool]) is None
    assert lookup("Where was the Tidepool design's author born?", [tidepool]) is None


def test_a_bold_list_item_and_a_key_of_two_words() -> None:
    plover = ("Plover", "# Plover Plover is a pipeline. - **Lead:** Inês Carvalho (Porto) - **Team:** Rui Sampaio "
              "- **Client contact:** Marijke Hoekstra, head of operational technology ## Timeline")  # fmt: skip
    lead = lookup("Who leads Plover?", [plover])
    assert lead is not None and (lead.answer, lead.column, lead.source) == ("Inês Carvalho (Porto)", "Lead", "list")
    contact = lookup("Who is the client contact for Plover?", [plover])
    assert contact is not None and contact.answer == "Marijke Hoekstra, head of operational technology"
    assert lookup("Who is the contact for the Curlew pilot?", [plover]) is None  # Plover is not named


def test_a_when_question_reads_the_date_of_the_timeline_row_it_describes() -> None:
    timeline = (
        "Plover",
        "## Timeline | When | What | |---|---| | March 2022 | Engagement kicked off | "
        "| 2 November 2022 | Plover v1.0 shipped, covering 212 pumping stations | | April 2023 | v1.4 shipped |",
    )
    shipped = lookup("When did Plover v1.0 ship?", [timeline])
    assert shipped is not None and (shipped.answer, shipped.column) == ("2 November 2022", "When")
    assert lookup("When did the engagement kick off?", [timeline]).answer == "March 2022"  # type: ignore[union-attr]
    assert lookup("When was it shipped?", [timeline]) is None  # one word of a row is not enough


def test_a_bold_key_in_prose_ends_at_its_sentence() -> None:
    notes = "Kick-off. **Owner:** Tobias. Then we discussed the plan. - **Team:** Rui, J. Smith and Lotte."
    assert key_values(notes) == [("Owner", "Tobias", "list"), ("Team", "Rui, J. Smith and Lotte", "list")]


def test_a_question_about_what_a_title_possesses_is_not_answered_with_it() -> None:
    """"Where did Plover's lead grow up?" asks where she grew up, not who the lead is; the
    Lead item answers "Who is Plover's lead?" and a possessed key asked for itself."""
    from drrag_cli.answer.tables import lookup

    plover = [("Plover", "- **Lead:** Inês Carvalho (Porto)\n- **Client contact:** Marijke Hoekstra")]
    assert lookup("Who is Plover's lead?", plover).answer == "Inês Carvalho (Porto)"
    assert lookup("What is Plover's client contact?", plover).answer == "Marijke Hoekstra"
    assert lookup("Where did Plover's lead grow up?", plover) is None
    assert lookup("Where was Plover's lead born?", plover) is None
    # "the lead of Project Plover" is Plover's lead too
    assert lookup("Which musical instrument does the lead of Project Plover play?", plover) is None
    assert lookup("Who is the lead of Project Plover?", plover).answer == "Inês Carvalho (Porto)"


def test_who_is_a_role_reads_the_person_cell_of_that_role_s_row() -> None:
    """A team table ("| Role | Person |") answers "Who is Curlew's design lead?"; a question
    that asks what someone did ("Who founded ...?") is no identity question for it."""
    from drrag_cli.answer.tables import lookup

    brief = [("Curlew: project brief", "## Team\n\n| Role | Person |\n|---|---|\n| Product manager | Hannah Osei |\n"
              "| Design lead | Aiko Tanabe |\n| Lead engineer | Wout Peeters |\n")]  # fmt: skip
    assert lookup("Who is Curlew's design lead?", brief).answer == "Aiko Tanabe"
    assert lookup("Who was the lead engineer on Curlew?", brief).answer == "Wout Peeters"
    register = [("Clients", "| Client | Contact name |\n|---|---|\n| Kestrel Rail | Mira Holm |\n")]
    assert lookup("Who is the contact of Kestrel Rail?", register).answer == "Mira Holm"
    assert lookup("Who founded Kestrel Rail?", register) is None


def test_a_row_s_cell_the_question_passes_through_is_not_its_answer() -> None:
    """"Where did the owner of the invoice renderer live …?" asks about the Owner cell's
    person; the cell answers only a question that asks for it."""
    table = (
        "| Milestone | Owner | Due |\n|---|---|---|\n| Schema migration | Tomas Berg | 2025-06-30 |\n"
        "| Invoice renderer | Lena Fischer | 2025-09-15 |\n"
    )
    plan = [("Project Alder", table)]
    assert lookup("Where did the owner of the invoice renderer live before Lisbon?", plan) is None
    assert lookup("When was the city where the owner of the schema migration is based founded?", plan) is None
    assert lookup("Where does the invoice renderer's owner live?", plan) is None
    assert lookup("Where was the owner of the invoice renderer born?", plan) is None
    assert lookup("Who is the owner of the invoice renderer?", plan).answer == "Lena Fischer"
    assert lookup("Who owns the schema migration?", plan).answer == "Tomas Berg"
    assert lookup("When is the invoice renderer due?", plan).answer == "2025-09-15"
    register = [("Clients", REGISTER)]
    assert lookup("Where is the headquarters of Kestrel Rail?", register).answer == "Linz, Austria"
    assert passed_cell("Where did the owner of the tool live?", "Owner", "") is None  # a row without a name
