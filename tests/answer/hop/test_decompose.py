"""Decomposed answers: the bridge entity from the link CFS followed, the question about it."""

from __future__ import annotations

import pytest

from drrag_cli.answer.hop.decompose import (
    Bridge,
    bridge_context,
    bridge_question,
    decomposed,
    mentioned_bridge,
    named_bridge,
    passed_through,
)
from drrag_cli.answer.hop.kinds import says_it_is
from drrag_cli.asked import parse
from drrag_cli.retrieve.context import Selected
from drrag_cli.types import Passage


@pytest.mark.parametrize(
    ("question", "entity", "expected"),
    [
        ("In which city was the lead engineer of Project Heron born?", "Tobias Lindqvist",
         "In which city was Tobias Lindqvist born?"),
        ("What government position was held by the woman who portrayed Corliss Archer in the film Kiss and Tell?",
         "Shirley Temple", "What government position was held by Shirley Temple?"),
        ("Who owns the command-line tool that the restore how-to uses?", "halyard-restore",
         "Who owns halyard-restore?"),
        ("Where is the company that built the Nortada depot headquartered?", "Tata Consultancy Services",
         "Where is Tata Consultancy Services headquartered?"),
        # no safe rewrite: the question word comes late, or the first description is the attribute asked for
        ("The Oberoi family is part of a hotel company that has a head office in what city?", "Oberoi Group", None),
        ("The arena where the Lewiston Maineiacs played can seat how many people?", "Androscoggin Bank Colisée", None),
        ("What is the county seat of the area around the University of Kansas?", "Lawrence", None),
        ("What is the county seat of the county where East Lempster is located?", "Sullivan County", None),
        ("What did the actress in My Fair Lady win a Tony for?", "Audrey Hepburn", None),
        ("What county is Erik Hort's birthplace a part of?", "Montebello", None),
        ("Which musical instrument does the lead of Project Plover play?", "Inês Carvalho", None),
        ("Who joined earlier, Priya Raman or Jonas Weber?", "Priya Raman", None),  # a choice
        ("Which of the founders of the Mississippi Institute of Arts and Letters contributed to the Act?",
         "William Winter", None),  # the answer is one of them (HotpotQA train100)
        ("Are both Senet and Medici board games?", "Senet", None),  # yes/no
        ("Where was Tobias Lindqvist born?", "Tobias Lindqvist", None),  # already named
        ("Where was he born?", "Tobias Lindqvist", None),  # no description
        # a name is no description: the next determiner opens it (MuSiQue dev100)
        ("When was the Palau de la Generalitat constructed in the city where Martin died?", "Barcelona",
         "When was the Palau de la Generalitat constructed in Barcelona?"),
        ("In which year was the King who made the 1925 Birthday Honours born?", "George V",
         "In which year was George V born?"),
        # one noun phrase: no list, no second clause; an aside that closes it is kept
        ("What dissolved privileges held by the empire that used Pan-Slavism, the leader of Prussia, and Austria?",
         "Reformation", None),
        ("Who held the record for a woman, and was surpassed by a former Speaker?", "Bronwyn Bishop", None),
        ("In what city was the composer who wrote a set of sonatas, titled Op. 5, born?", "Antonio Vivaldi",
         "In what city was Antonio Vivaldi born?"),
        # a comma inside a name joins nothing (HotpotQA train100)
        ("In what year was the man that resigned as the president of Israel before the Israeli presidential "
         "election, 2000 born?", "Ezer Weizman", "In what year was Ezer Weizman born?"),
        ("Who produced the single that the reggae singer born in 1952 in Kingston, Jamaica was most known for?",
         "Sweet Song", "Who produced Sweet Song?"),
        ("Who held the record for a woman, and was surpassed by a former Speaker, 2004?", "Bronwyn Bishop", None),
        ("Where did who argued that the country of Victor Denisov had become imperialist declare war?", "Greece",
         None),  # a question inside the question
        ("How long is the bridge that connects Copenhagen, Denmark and Malmo, Sweden?", "Øresund", None),
        ("What race track in the midwest hosts a 500 mile race every May?", "Indianapolis Motor Speedway", None),
        ('Which English musician is known for both the songs "See Yourself" and "Within You"?', "The Beatles",
         None),
        # the closing participle belongs to the description's own clause
        ("Whose father was a navigator who explored the coast where Sergio Villanueva would later be born?",
         "John Cabot", "Whose father was John Cabot?"),
    ],
)  # fmt: skip
def test_bridge_question(question: str, entity: str, expected: str | None) -> None:
    assert bridge_question(question, entity) == expected


def selected(pid: int, source: str, title: str, text: str, via: int | None = None) -> Selected:
    p = Passage(source=source, title=title, text=text, ordinal=0, char_start=0, char_end=len(text), passage_id=pid)
    return Selected(p, "static" if via is None else "dynamic", 1.0, via=via)


def test_the_bridge_is_a_dynamic_title_its_static_document_names() -> None:
    overview = [
        selected(1, "heron.md", "Heron", "Heron started in spring 2022 as an internal tool."),
        selected(2, "heron.md", "Heron", "| Lead engineer | Tobias Lindqvist |"),
    ]
    notes = selected(7, "offsite.md", "Offsite 2022: notes", "We decided to ship Heron.", via=1)
    tobias = selected(9, "tobias.md", "Tobias Lindqvist", "Tobias was born in Uppsala.", via=1)
    question = "In which city was the lead engineer of Project Heron born?"
    # the via passage (1) does not name him, its document's other fed passage (2) does
    bridge = Bridge("Tobias Lindqvist", "| lead engineer | tobias lindqvist |", "Heron", "tobias.md")
    assert named_bridge([*overview, notes, tobias]) == bridge
    assert decomposed(question, [*overview, notes, tobias]) == "In which city was Tobias Lindqvist born?"
    assert named_bridge([*overview, notes]) is None  # a document title, not an entity
    assert decomposed(question, overview) is None  # nothing dynamic: ask as asked


def test_the_bridge_s_neighbourhood_is_its_own_sentence() -> None:
    """"How many years did Jonas manage the Falcon migration?" was asked as "… manage Kestrel?":
    the lower-cased passage was one unit, so the sentence about Falcon described Kestrel too."""
    jonas = selected(1, "jonas.md", "Jonas Berg", "Jonas Berg leads the Kestrel project. Before that he managed "
                     "the Falcon migration at Nordbank for four years.")  # fmt: skip
    kestrel = selected(2, "kestrel.md", "Kestrel", "Kestrel is our event-sourcing platform.", via=1)
    assert named_bridge([jonas, kestrel]).near == "jonas berg leads the kestrel project."  # type: ignore[union-attr]
    assert decomposed("How many years did Jonas manage the Falcon migration?", [jonas, kestrel]) is None
    assert decomposed("Who leads the project that Jonas Berg leads?", [jonas, kestrel]) == "Who leads Kestrel?"
    # an initial's full stop ends no sentence: "James P. Hogan" is named in one
    novel = selected(3, "genesis.md", "The Genesis Machine", "The Genesis Machine is a novel by James P. Hogan. "
                     "It was published in 1978.")  # fmt: skip
    hogan = selected(4, "hogan.md", "James P. Hogan", "James Patrick Hogan was a British writer.", via=3)
    assert named_bridge([novel, hogan]).near == "the genesis machine is a novel by james p. hogan."  # type: ignore[union-attr]


def test_the_static_document_must_describe_the_bridge_as_the_question_does() -> None:
    plover = selected(1, "plover.md", "Plover", "Plover watches pumping stations.\n| Lead | Inês Carvalho |")
    ines = selected(5, "ines.md", "Inês Carvalho", "Inês plays the cello.", via=1)
    off_topic = "What false-alarm rate did Plover reach after the autumn release, according to the review?"
    assert decomposed(off_topic, [plover, ines]) is None  # "the autumn release" is not how Plover names her
    assert decomposed("In which city was the lead of Plover born?", [plover, ines]) == (
        "In which city was Inês Carvalho born?"  # "lead": how the overview names her
    )


def test_a_bridge_named_inside_both_documents_when_no_title_names_it() -> None:
    """The tech report says where Saltmarsh was trained, the wiki where that cluster is:
    Brackwater is a name both state, not a document's title (two static documents)."""
    report = selected(1, "saltmarsh.pdf", "Saltmarsh: Compact Sentence Embeddings",
                      "4 Training setup Saltmarsh was trained on the Brackwater cluster, our in-house GPU cluster.")
    wiki = selected(5, "infrastructure.html", "Infrastructure overview",
                    "Compute: the Brackwater cluster Brackwater is our GPU cluster, housed in the Vlasmarkt Annex.")
    company = selected(8, "about.md", "About us", "Halyard Labs trains models on the Brackwater cluster.")
    question = "In which building is the GPU cluster that the Saltmarsh embedding model was trained on housed?"
    expected = Bridge("Brackwater", report.passage.text, report.passage.title, "infrastructure.html")
    assert mentioned_bridge(question, [report, wiki]) == expected
    assert decomposed(question, [report, wiki]) == "In which building is Brackwater housed?"
    assert mentioned_bridge(question, [report, wiki, company]) is None  # three files name it: no bridge
    # "Training" opens a heading and never stands inside a sentence: not a name
    jobs = selected(6, "jobs.md", "Batch jobs", "Our training jobs run at night.")
    assert mentioned_bridge(question, [report, jobs]) is None


def test_a_participle_that_closes_the_description_s_own_clause_is_left_alone() -> None:
    question = "In which city is the headquarters of the client for which Project Tern was built?"
    assert bridge_question(question, "Ruben De Smet") is None


def test_a_name_the_next_hop_only_mentions_in_passing_is_no_bridge() -> None:
    """The draft pick's page says "a former American football cornerback": American stands
    inside a sentence and in both documents, but the page is not about it."""
    pick = selected(1, "pick.md", "Draft picks", "The Redskins' first round pick was an American player, Jeris White.")
    white = selected(4, "white.md", "Jeris White", "Jeris White is a former American football cornerback.", via=1)
    question = "What year was the brother of this first round draft pick by the Washington Redskins drafted?"
    expected = Bridge("Jeris White", pick.passage.text, "Draft picks", "white.md")
    assert mentioned_bridge(question, [pick, white]) == expected
    nameless = selected(4, "white.md", "A cornerback", "He is a former American football cornerback.", via=1)
    assert mentioned_bridge(question, [pick, nameless]) is None


def test_a_how_to_that_points_nowhere_is_bridged_by_the_tool_it_is_about() -> None:
    """Nothing in the how-to says "tool" or "owns"; it names `ebbtide` over and over, and
    the question describes the tool by the how-to's own title words."""
    text = (
        "# How to restore files from the nightly backup All backups are made with `ebbtide`, our wrapper "
        "around restic. Do not call restic directly: ebbtide knows where the repositories are."
    )
    howto = selected(1, "howto.md", "How to restore files from the nightly backup", text)
    table = "| Tool | Owner | |---|---| | `ebbtide` | Dmitri Volkov |"
    tools = selected(5, "onboarding.html", "Onboarding", table, via=1)
    question = "Who owns the tool that the how-to for restoring files from the nightly backup tells you to use?"
    assert decomposed(question, [howto, tools]) == "Who owns ebbtide?"
    unrelated = "Who owns the laptop that the new joiner gets on the first day?"
    assert decomposed(unrelated, [howto, tools]) is None  # the description says nothing of the how-to


def test_no_rewrite_when_the_bridge_is_what_the_question_asks_for() -> None:
    """The festival's page names its host, whose own page says he is a film director: the
    question asks for him, so naming him in it would only echo him back."""
    festival = selected(1, "festival.md", "2014 Florida Film Festival",
                        "The 2014 Florida Film Festival was hosted by John Waters.")
    waters = selected(5, "waters.md", "John Waters", "John Waters is an American film director.", via=1)
    question = "Which American film director hosted the 2014 Florida Film Festival?"
    assert parse(question).kind == "director" and parse("In which city was X born?").kind == "city"
    assert parse("Who hosted the festival?").kind == ""
    assert decomposed(question, [festival, waters]) is None
    actor = selected(5, "waters.md", "John Waters", "John Waters is an American actor.", via=1)
    born = "In which city was the man who hosted the 2014 Florida Film Festival born?"
    assert decomposed(born, [festival, actor]) == "In which city was John Waters born?"  # not a city: a bridge


def test_a_university_a_profile_mentions_does_not_make_its_subject_one() -> None:
    """"Which university did the design lead of Curlew attend?" is asked about Aiko Tanabe:
    her profile says she "studied ... at Musashino Art University", which is not saying she
    is a university (the check read any "university" in the first 200 characters)."""
    brief = selected(1, "curlew.md", "Curlew: project brief", "| Design lead | Aiko Tanabe |")
    aiko = selected(5, "aiko.md", "Aiko Tanabe",
                    "Aiko was born in Sendai and studied design at Musashino Art University in Tokyo.", via=1)
    question = "Which university did the design lead of Curlew attend?"
    assert decomposed(question, [brief, aiko]) == "Which university did Aiko Tanabe attend?"
    assert says_it_is("university", "Lund University", "")
    assert says_it_is("director", "John Waters", "John Waters is an American film director.")
    assert not says_it_is("university", "Aiko Tanabe", aiko.passage.text)


def test_words_that_name_another_fed_document_do_not_point() -> None:
    """"the how-to for restoring files from the nightly backup" names the how-to (its title);
    the infrastructure page's line on nightly backups is not where the question points."""
    howto = selected(1, "howto.md", "How to restore files from the nightly backup", "Log in to the backup host first.")
    infra = selected(2, "infra.html", "Infrastructure overview",
                     "It holds the project shares for the Porto team and receives nightly backups.")
    onboarding = selected(5, "onboarding.html", "Onboarding", "- Porto office: ask Ines for a badge.", via=2)
    question = "Who owns the command-line tool that the how-to for restoring files from the nightly backup uses?"
    assert mentioned_bridge(question, [howto, infra, onboarding]) is None  # not "Who owns Porto?"


def test_the_bridge_context_keeps_the_bridge_document_and_what_names_it() -> None:
    overview = selected(2, "heron.md", "Heron", "| Lead engineer | Tobias Lindqvist |").passage
    history = selected(1, "heron.md", "Heron", "Heron started in spring 2022 as an internal tool.").passage
    tobias = selected(9, "tobias.md", "Tobias Lindqvist", "Born in Uppsala.").passage
    after = selected(10, "tobias.md", "Tobias Lindqvist", "He moved to Ghent in 2018.").passage  # names no one
    hannah = selected(5, "hannah.md", "Hannah Osei", "Hannah is the product manager for Heron.").passage
    bridge = Bridge("Tobias Lindqvist", "| lead engineer | tobias lindqvist |", "Heron", "tobias.md")
    fed = [history, overview, tobias, after, hannah]
    assert bridge_context(bridge, fed) == [overview, tobias, after]
    elsewhere = Bridge("Jonas Weber", "", "Heron", "jonas.md")
    assert bridge_context(elsewhere, fed) == fed  # nothing fed names it: all stays


@pytest.mark.parametrize(
    ("question", "entity", "near", "about", "expected"),
    [
        ('The director of the romantic comedy "Big Stone Gap" is based in what New York city?', "Adriana Trigiani",
         "big stone gap is a 2014 american romantic comedy film directed by adriana trigiani", "Big Stone Gap (film)",
         "Adriana Trigiani is based in what New York city?"),
        ("The Argentine PGA Championship record holder has won how many tournaments worldwide?", "Roberto De Vicenzo",
         "roberto de vicenzo holds the record with nine argentine pga championship wins", "Argentine PGA Championship",
         "Roberto De Vicenzo has won how many tournaments worldwide?"),
        # the static document is about the album the description names, not about the singer
        ("The album Against the Wind was the 11th album of a rock singer born in what year?", "Bob Seger",
         "against the wind is the eleventh studio album by bob seger", "Against the Wind (album)", None),
        # a relative clause ends before the verb: where the description stops is unknown
        ("The team competes in a conference that was formerly known as what?", "America East Conference",
         "the team competes in the america east conference", "Vermont Catamounts", None),
        # no static-document context: no rewrite
        ("The director of Big Stone Gap is based in what city?", "Adriana Trigiani", None, "", None),
    ],
)  # fmt: skip
def test_a_leading_description_is_replaced_when_the_question_word_comes_late(
    question: str, entity: str, near: str | None, about: str, expected: str | None
) -> None:
    assert bridge_question(question, entity, near, about) == expected


def test_the_bridge_inside_the_asked_attribute_is_replaced() -> None:
    """"the headquarters of [the client for which Project Tern was built]": the participle
    closes the inner description, which is the bridge; only with the static document's words."""
    question = "In which city is the headquarters of the client for which Project Tern was built?"
    near = "tern was an assistant that halyard labs built for nortada ferries"
    assert bridge_question(question, "Nortada Ferries", near, "Tern retrospective") == (
        "In which city is the headquarters of Nortada Ferries?"
    )
    assert bridge_question(question, "Nortada Ferries", "nortada ferries runs boats", "Tern retrospective") is None
    assert bridge_question(question, "Nortada Ferries") is None  # no static-document context


def test_a_title_the_question_does_not_describe_gives_way_to_the_name_it_does() -> None:
    """The register's table row names Maren (a dynamic title), but the question describes
    the client the retrospective names: the mentioned bridge is asked about."""
    question = "In which city is the headquarters of the client for which Project Tern was built?"
    tern = selected(1, "tern.rst", "Tern retrospective", "Halyard Labs built Tern for Nortada Ferries in 2019.")
    register = selected(2, "clients.md", "Client register", "| Aalst archive | Aalst | Maren Okafor |")
    visit = selected(7, "visit.txt", "2020-02-nortada-visit", "Nortada Ferries headquarters in Aveiro.", via=1)
    maren = selected(9, "maren.md", "Maren Okafor", "Maren is our CEO.", via=2)
    assert named_bridge([tern, register, visit, maren]).entity == "Maren Okafor"
    rewritten = "In which city is the headquarters of Nortada Ferries?"
    assert decomposed(question, [tern, register, visit, maren]) == rewritten


@pytest.mark.parametrize(
    ("question", "near", "about", "expected"),
    [
        ("Which musical instrument does the lead of Project Plover play?", "| lead | inês carvalho |",
         "Plover: project overview", "Which musical instrument does Inês Carvalho play?"),
        # no preposition or relative word between the determiner and the title
        ("When did the Plover lead start?", "| lead | inês carvalho |", "Plover: project overview", None),
        # the title is followed by a possessive: the possessive is the entity (test_decompose_possessive)
        ("What year did the city where Plover's lead lives end?", "| lead | inês carvalho |", "Plover",
         "What year did the city where Inês Carvalho lives end?"),
        # the static document does not describe her as the question does
        ("What does the designer of Plover play?", "| lead | inês carvalho |", "Plover", None),
        # no verb phrase after the title
        ("Who does the lead of Project Plover?", "| lead | inês carvalho |", "Plover", None),
        # a clause of its own before the title (sample Q5): the title is not where the description ends
        ("At which restaurant did the team have dinner during the offsite at which it was decided to rewrite the "
         "Plover ingestion service in Rust?", "jonas weber, team lead at the offsite", "Plover", None),
        # the title's name without the common noun after it ("Elmstead library" is Elmstead's library)
        ("Where did the head librarian of Elmstead study?", "the head librarian is [ruth amsel](people/ruth-amsel.md)",
         "Elmstead library", "Where did Inês Carvalho study?"),
        ("Where did the head librarian of the Elmstead library study?", "the head librarian is ruth amsel",
         "Elmstead library", "Where did Inês Carvalho study?"),
        ("Where did the head librarian study?", "the head librarian is ruth amsel", "Elmstead library", None),
        ("Who does the lead of Project Plover?", "| lead | inês carvalho |", "Project Plover", None),
        # or at a name the static document says beside her, the description's verb said there too
        ("Where did the person who recommended Piranesi grow up?", "piranesi was recommended by inês carvalho.",
         "Reading log 2025", "Where did Inês Carvalho grow up?"),
        ("Where did the author of Piranesi study?", "piranesi was recommended by inês carvalho.",
         "Reading log 2025", None),
    ],
)  # fmt: skip
def test_a_description_after_do_ends_at_the_static_document_s_title(
    question: str, near: str, about: str, expected: str | None
) -> None:
    assert bridge_question(question, "Inês Carvalho", near, about) == expected


def test_the_first_ranked_static_document_s_bridge_comes_first() -> None:
    """Sample Q8: the board update names the client (in the register's rows, not its title);
    the second static document, the infrastructure page, names a person whose profile CFS
    also kept. The board update ranks first, so its bridge is the one asked about."""
    board = selected(1, "board.pdf", "Board update, Q3 2023",
                     "The largest new contract of the quarter was signed by Kestrel Rail.")
    register = selected(4, "clients.md", "Client register",
                        "| Kestrel Rail | rail operator | Linz |\n| Nortada Ferries | ferries | Porto |", via=1)
    infra = selected(2, "infrastructure.html", "Infrastructure overview",
                     "Jonas Weber signs every new contract for compute.")
    jonas = selected(9, "jonas.md", "Jonas Weber", "Jonas Weber works from the office in Ghent.", via=2)
    question = "In which city is the client that signed the largest new contract of the quarter headquartered?"
    expected = "In which city is Kestrel Rail headquartered?"
    assert decomposed(question, [board, infra, register, jonas]) == expected
    assert decomposed(question, [infra, board, jonas, register]) == "In which city is Jonas Weber headquartered?"


def test_a_description_nested_after_a_preposition_is_the_one_replaced() -> None:
    """A three-hop question keeps its outer description: the entity replaces the one the
    static document says of it ("lead engineer"), not the whole; inside a relative clause
    the outer description stays the one replaced."""
    near, about = "its lead engineer is tobias lindqvist, who designed the ranking pipeline.", "Project Heron"
    question = "In which year was the university attended by the lead engineer of Project Heron founded?"
    assert bridge_question(question, "Tobias Lindqvist", near, about) == (
        "In which year was the university attended by Tobias Lindqvist founded?"
    )
    assert bridge_question("In which city was the lead engineer of Project Heron born?", "Tobias Lindqvist", near,
                           about) == "In which city was Tobias Lindqvist born?"  # fmt: skip
    relative = "In which city is the engineer that led the search prototype of the lab headquartered?"
    assert bridge_question(relative, "Tobias Lindqvist", near + " the search prototype of the lab", about) == (
        "In which city is Tobias Lindqvist headquartered?"
    )
    flood = "its flood team is led by [[jonas berg|jonas]], who joined from the coastal authority in 2015."
    leader = "Where was the leader of the regional water board's flood team born?"  # "led by": the leader is him
    assert bridge_question(leader, "Jonas Berg", flood, "Regional water board") == "Where was Jonas Berg born?"
    sails = "What does the leader of the regional water board's flood team sail?"  # past the title's possessive
    assert bridge_question(sails, "Jonas Berg", flood, "Regional water board") == "What does Jonas Berg sail?"
    pacem = "In what year did the city where Pacem in Terris' author died get its name?"  # "author": not said
    assert bridge_question(pacem, "Rome", "pacem in terris was written in rome", "Pacem in Terris") is None


def test_the_bridge_context_keeps_a_third_hop_reached_through_the_bridge() -> None:
    heron = selected(1, "heron.md", "Project Heron", "Its lead engineer is Tobias Lindqvist.")
    tobias = selected(7, "tobias.md", "Tobias Lindqvist", "He studied at Lund University.", via=1)
    lund = selected(9, "lund.md", "Lund University", "It was founded in 1666.", via=7)
    recipe = selected(4, "recipe.md", "Lentil soup", "Simmer red lentils.", via=1)
    bridge = Bridge("Tobias Lindqvist", "its lead engineer is tobias lindqvist.", "Project Heron", "tobias.md")
    documents = [heron, tobias, lund, recipe]
    fed = [d.passage for d in documents]
    asked = "In which year was the university attended by Tobias Lindqvist founded?"
    assert bridge_context(bridge, fed, documents, asked) == [heron.passage, tobias.passage, lund.passage]
    assert bridge_context(bridge, fed, documents, "Where was Tobias Lindqvist born?") == [heron.passage, tobias.passage]
    assert bridge_context(bridge, fed) == [heron.passage, tobias.passage]  # no documents: only what names him


def test_what_a_static_bridge_document_led_to_is_no_third_hop() -> None:
    tobias = selected(7, "tobias.md", "Tobias Lindqvist", "Born in Uppsala.")  # a static document itself
    launch = selected(9, "launch.md", "Heron launch planning", "The launch is in June.", via=7)
    bridge = Bridge("Tobias Lindqvist", "lead engineer tobias lindqvist", "Project Heron", "tobias.md")
    documents = [tobias, launch]
    asked = "When is the Heron launch planned with Tobias Lindqvist?"
    assert bridge_context(bridge, [d.passage for d in documents], documents, asked) == [tobias.passage]


def test_a_description_that_is_a_documents_title_is_no_bridge() -> None:
    """"Who founded the Lindenweg choir?" is about the choir's note: the partner Greta's note
    names is no bridge, and the question stays as asked."""
    choir = selected(3, "choir.md", "Lindenweg choir", "The Lindenweg choir was founded in 2011 by Greta Vos.")
    greta = selected(1, "greta.md", "Greta Vos",
                     "She lives in Haarlem with her partner Joost Brandsma. She founded the Lindenweg choir.")
    joost = selected(7, "joost.md", "Joost Brandsma", "Joost Brandsma plays the bassoon.", via=1)
    assert decomposed("Who founded the Lindenweg choir?", [choir, greta, joost]) is None
    swap = selected(4, "seed-swap.md", "Seed swap 2024", "Peter Hale brought his famous runner beans.")
    club = selected(5, "club.md", "Garden club", "The club runs a seed swap in March and a harvest show.")
    show = selected(8, "show.md", "Harvest show", "The show is judged by Ana Ruiz.", via=5)
    assert decomposed("Who brought runner beans to the seed swap?", [swap, club, show]) is None  # the note's title
    report = selected(6, "papers/saltmarsh-tech-report.pdf", "Saltmarsh: Compact Sentence Embeddings",
                      "Halyard Labs Technical Report HL-TR-2022-03. Priya Raman and Tobias Lindqvist, Halyard "
                      "Labs, Ghent. We describe Saltmarsh, a compact model.")
    priya = selected(9, "people/priya-raman.md", "Priya Raman", "Priya leads retrieval research.", via=6)
    assert decomposed("Who wrote the Saltmarsh tech report?", [report, priya]) is None  # the file's name
    assert decomposed("Which instrument does the partner of Greta Vos play?", [choir, greta, joost]) == (
        "Which instrument does Joost Brandsma play?"
    )


def test_the_description_and_the_static_document_share_a_stem() -> None:
    show = selected(1, "harvest-show.md", "Harvest show", "The September harvest show is judged by [[Ana Ruiz]].")
    ana = selected(5, "Ana Ruiz.md", "Ana Ruiz", "Ana Ruiz grew up in Valencia.", via=1)
    asked = "Where did the judge of the harvest show grow up?"
    assert decomposed(asked, [show, ana]) == "Where did Ana Ruiz grow up?"  # "judge" / "judged"


def test_a_later_hop_s_bridge_when_the_first_one_s_is_not_described() -> None:
    """Peter Hale's note leads on to the club note through "Elmstead", which the question
    does not describe; the seed swap note names him where the question points."""
    swap = selected(7, "seed-swap.md", "Seed swap 2024", "The March seed swap drew 140 visitors. "
                    "Peter Hale brought his famous runner beans.")
    peter = selected(6, "peter-hale.md", "Peter Hale", "Peter Hale chaired the garden club from 2012 to 2021. "
                     "He was born in Leeds and taught chemistry at Elmstead secondary school.")
    club = selected(3, "club.md", "Elmstead garden club", "# Elmstead garden club\n\nThe Elmstead garden club "
                    "meets on the first Saturday of each month in the old schoolhouse.", via=6)
    question = "Where was the man who brought runner beans to the seed swap born?"
    assert mentioned_bridge(question, [swap, peter, club]).entity == "Elmstead"  # the first hop's name
    assert decomposed(question, [swap, peter, club]) == "Where was Peter Hale born?"


def test_a_mentioned_bridge_is_found_where_the_question_s_words_stand_by_stem() -> None:
    """Both notes are static (no dynamic title to name): the show note's "judged by" is
    where "the judge" points."""
    show = selected(1, "harvest-show.md", "Harvest show", "The September harvest show is judged by [[Ana Ruiz]].")
    ana = selected(5, "Ana Ruiz.md", "Ana Ruiz", "Ana Ruiz grew up in Valencia.")
    asked = "Where did the judge of the harvest show grow up?"
    assert mentioned_bridge(asked, [show, ana]).entity == "Ana Ruiz"
    assert decomposed(asked, [show, ana]) == "Where did Ana Ruiz grow up?"


@pytest.mark.parametrize(
    ("question", "entity", "near", "about", "expected"),
    [
        # "What / Who is [the X of …]?" asks for X; a description inside it may be the bridge
        ("Who is the newly elected Chief Justice of the country where Masherbrum is located?", "Pakistan",
         "masherbrum is located in the ghanche district, pakistan", "Masherbrum",
         "Who is the newly elected Chief Justice of Pakistan?"),
        # a possessive at the end of the inner description is the entity, not the birthplace
        ("What is the name of the famous bridge in the birthplace of Gloria in D Major's composer?",
         "Antonio Vivaldi", "the hymn gloria, composed by antonio vivaldi", "Gloria (Vivaldi)",
         "What is the name of the famous bridge in the birthplace of Antonio Vivaldi?"),
        # the city is not the performer: the relative clause holds a description of its own
        ("What is the name of the castle in the city where the performer of We Sweat Blood formed?", "Danko Jones",
         "we sweat blood is an album performed by danko jones", "We Sweat Blood", None),
        # no description inside, or one the static document does not say of the entity
        ("Who is the lead engineer of Project Heron?", "Tobias Lindqvist", "lead engineer | tobias lindqvist",
         "Heron: project overview", None),
        # the inner description does not name the static document: a bridge found elsewhere
        ("Who is the child of the president under whom prohibition occurred?", "India",
         "the president of india", "List of governors-general of India", None),
        # inside a relative clause of the asked description; a name, not a description
        ("Who was the physicist who directed the project at the same place where Feynman worked on Water Boiler?",
         "Los Alamos", "water boiler was built at the los alamos place", "Water Boiler", None),
        ("What was the father of Kasper Schmeichel voted to be by the IFFHS in 1992?", "World's Best Goalkeeper",
         "the iffhs voted him world's best goalkeeper in 1992", "IFFHS", None),
        ("Who is the spouse of the cast member of Green Ice?", "Ryan O'Neal", "starring ryan o'neal, anne archer",
         "Green Ice", None),
        # a preposition that ends the question: "What city is [the star of X] from?"
        ("What city is the star of Sous les pieds des femmes from?", "Claudia Cardinale",
         "a 1997 french drama film starring claudia cardinale", "Sous les pieds des femmes",
         "What city is Claudia Cardinale from?"),  # "star" / "starring"
        ("What league was the team that Jose Cancela was a member of in?", "New England Revolution",
         "jose cancela was a member of the new england revolution", "Jose Cancela",
         "What league was New England Revolution in?"),
        # the participle closes the description's own clause, with nothing asked of inside it
        ("In what county is the city where Harris W. Fawell was born?", "West Chicago",
         "harris w. fawell was born in west chicago", "Harris W. Fawell", "In what county is West Chicago?"),
    ],
)  # fmt: skip
def test_a_description_inside_the_asked_one_or_before_a_closing_preposition(
    question: str, entity: str, near: str | None, about: str, expected: str | None
) -> None:
    assert bridge_question(question, entity, near, about) == expected


@pytest.mark.parametrize(
    ("question", "entity", "near", "about", "expected"),
    [
        ("When did the state where Pocahontas Mounds is located become part of the United States?", "Mississippi",
         "pocahontas mounds is a site located in mississippi", "Pocahontas Mounds",
         "When did Mississippi become part of the United States?"),
        ("When did the country where the village of Clonbrook is located, become a member of CARICOM?", "Guyana",
         "clonbrook is a village in guyana located on the coast", "Clonbrook",
         "When did Guyana become a member of CARICOM?"),
        # the static document never says "country" or "containing" where it names Sri Lanka
        ("When did the country containing Nugegoda leave the British Empire?", "Sri Lanka",
         "nugegoda is a suburb in colombo district, sri lanka", "Nugegoda", None),
        ("When did the country containing Nugegoda leave the British Empire?", "Sri Lanka",
         "a country containing nugegoda: sri lanka", "Nugegoda",
         "When did Sri Lanka leave the British Empire?"),  # joined by its verb
        # who made a work is who the work is "by"; a husband is whose "ex-wife" she is
        ("In what year was the group who performed Attics To Eden formed?", "Madina Lake",
         "attics to eden is the second studio album by american band madina lake", "Attics to Eden",
         "In what year was Madina Lake formed?"),
        ("What team was Anna Benson's husband on?", "Kris Benson",
         "anna benson is an american model and ex-wife of former baseball pitcher kris benson", "Anna Benson",
         "What team was Kris Benson on?"),
        ("In what year was the group who performed Attics To Eden formed?", "Madina Lake",
         "attics to eden was produced by joe smith; madina lake toured", "Attics to Eden", None),  # not by them
        # the innermost description is the one the work's "by" names: not the birth city
        ("How many times did plague occur in the birth city of the composer of La fida ninfa?", "Antonio Vivaldi",
         "la fida ninfa is an opera by antonio vivaldi to a libretto by scipione maffei", "La fida ninfa",
         "How many times did plague occur in the birth city of Antonio Vivaldi?"),
        ("What year did the company that published Starship Command end?", "Acornsoft",
         "acornsoft's starship command is a computer game. it was written by peter irvin", "Starship Command",
         "What year did Acornsoft end?"),  # the company's game
        # "1979-80" names "1979–80 European Cup"; its winner is who it "was won by"
        ("When did the 1979-80 European Cup winner win the FA Cup?", "Nottingham Forest",
         "the 1979–80 season of the european cup was won by holders nottingham forest", "1979–80 European Cup",
         "When did Nottingham Forest win the FA Cup?"),
    ],
)  # fmt: skip
def test_a_description_after_did_whose_relative_clause_ends_on_is_located(
    question: str, entity: str, near: str | None, about: str, expected: str | None
) -> None:
    assert bridge_question(question, entity, near, about) == expected


def test_a_static_document_that_is_an_aspect_of_a_name_its_dynamic_one_states() -> None:
    """CFS ranked the answer's side first: "Chief Justice of Pakistan" (static, its text
    never says Pakistan) led to Masherbrum's page, which says where the mountain is."""
    justice = selected(1, "cjp.md", "Chief Justice of Pakistan", "The current Chief Justice is Mian Saqib Nisar.")
    mountain = selected(2, "masherbrum.md", "Masherbrum", "Masherbrum (formerly known as K1) is located in the "
                        "Ghanche District, Gilgit Baltistan of Pakistan.", via=1)  # fmt: skip
    question = "Who is the newly elected Chief Justice of the country where Masherbrum is located?"
    assert decomposed(question, [justice, mountain]) == "Who is the newly elected Chief Justice of Pakistan?"
    other = selected(1, "cjg.md", "Chief Justice of Ghana", "The current Chief Justice is Sophia Akuffo.")
    assert decomposed(question, [other, mountain]) is None  # Ghana's page is not about Pakistan


def test_the_bridge_a_question_passes_through_when_it_cannot_be_rewritten() -> None:
    """The film the town's page names is the bridge of "Who directed the film that was shot
    …, and …?", which no rule rewrites (a second clause); a question that offers its answers
    has none (both sides are needed)."""
    town = selected(1, "leland.md", "Leland, North Carolina", "The 1986 film Maximum Overdrive was shot in Leland.")
    film = selected(2, "film.md", "Maximum Overdrive", "Maximum Overdrive is a film directed by Stephen King.", via=1)
    asked = "Who directed the film that was shot in or around Leland, North Carolina in 1986"
    assert decomposed(asked, [town, film]) == "Who directed Maximum Overdrive?"  # the comma is the town's name's
    asked = "Who directed the film that was shot in Leland, and that starred Emilio Estevez?"
    assert decomposed(asked, [town, film]) is None
    bridge = passed_through(asked, [town, film])
    assert bridge is not None and bridge.entity == "Maximum Overdrive" and bridge.source == "film.md"
    assert passed_through("Was Maximum Overdrive shot in North Carolina?", [town, film]) is None
    series = selected(3, "animorphs.md", "Animorphs", "Animorphs is a science fantasy series of young adult books.")
    book = selected(4, "book.md", "The Book of Fantasy", "An anthology edited by Adolfo Bioy Casares.")
    writer = selected(5, "bioy.md", "Adolfo Bioy Casares", "Adolfo Bioy Casares was an Argentine writer.", via=4)
    asked = "What science fantasy young adult series has a set of companion books?"
    assert passed_through(asked, [series, book, writer]) is None  # only the second-ranked document leads on
