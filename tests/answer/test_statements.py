"""A fact the text states outright, read in code (answer/statements.py)."""

from __future__ import annotations

from drrag_cli.answer.statements import read_statement

PROFILE = (
    "Inês Carvalho",
    "# Inês Carvalho | | | |---|---| | **Role** | Senior data engineer, Porto office lead | "
    "## Background Inês was born in Braga and studied computer engineering at the University of Minho. "
    "She spent five years at a telecom operator in Lisbon.",
)


def test_the_value_after_the_question_s_verb_is_read() -> None:
    read = read_statement("Where was Inês Carvalho born?", [PROFILE])
    assert read is not None and (read.answer, read.row, read.column, read.document) == (
        "Braga", "Inês Carvalho", "born", 0)  # fmt: skip


def test_a_pronoun_or_a_bare_verb_in_the_subject_s_own_document_counts() -> None:
    note = ("Marisol Okonkwo", "Hydrologist at the regional water board. Born and raised in Porto; moved in 2009.")
    assert read_statement("Where was Marisol Okonkwo born?", [note]).answer == "Porto"  # type: ignore[union-attr]
    hale = ("Peter Hale", "Peter Hale chaired the garden club. He was born in Leeds and taught chemistry.")
    assert read_statement("Where was Peter Hale born?", [hale]).answer == "Leeds"  # type: ignore[union-attr]


def test_dates_and_agents() -> None:
    director = ("Scott Derrickson", "Scott Derrickson (born July 16, 1966) is an American director.")
    assert read_statement("When was Scott Derrickson born?", [director]).answer == "July 16, 1966"  # type: ignore[union-attr]
    film = ("Jaws (film)", "Jaws is a 1975 American thriller film directed by Steven Spielberg.")
    assert read_statement("Who was Jaws directed by?", [film]).answer == "Steven Spielberg"  # type: ignore[union-attr]
    founded = ("Halyard Labs", "Halyard Labs was founded in 2019 in Ghent.")
    assert read_statement("When was Halyard Labs founded?", [founded]).answer == "2019"  # type: ignore[union-attr]


def test_the_model_answers_when_the_text_disagrees_is_silent_or_is_about_someone_else() -> None:
    other = ("Sofie Janssens", "Sofie was born in Mechelen.")
    assert read_statement("Where was Inês Carvalho born?", [PROFILE, other]).answer == "Braga"  # type: ignore[union-attr]
    twice = ("Inês Carvalho (old)", "Inês was born in Porto.")
    assert read_statement("Where was Inês Carvalho born?", [PROFILE, twice]) is None
    assert read_statement("Where was Sofie Janssens born?", [PROFILE]) is None
    assert read_statement("When was Inês Carvalho born?", [PROFILE]) is None  # no date follows "born"


def test_only_a_plain_question_about_a_name_is_read() -> None:
    assert read_statement("Where was the Porto office lead born?", [PROFILE]) is None  # a description
    assert read_statement("How did Inês Carvalho study?", [PROFILE]) is None
    assert read_statement("Why was Inês Carvalho born in Braga?", [PROFILE]) is None


def test_a_plain_verb_after_did_or_does_is_read_in_its_past_or_present_form() -> None:
    tobias = ("Tobias Lindqvist", "He studied computer science at Uppsala University and then moved to Belgium.")
    read = read_statement("Where did Tobias Lindqvist study?", [tobias])
    assert read is not None and (read.answer, read.column) == ("Uppsala University", "study")
    hannah = ("Hannah Osei", "Hannah was born in Kumasi, Ghana, and grew up in London.")
    assert read_statement("Where did Hannah Osei grow up?", [hannah]).answer == "London"  # type: ignore[union-attr]
    aiko = ("Aiko Tanabe", "Aiko lives in Ghent and works in the Dok Noord office.")
    assert read_statement("Where does Aiko Tanabe live?", [aiko]).answer == "Ghent"  # type: ignore[union-attr]
    died = ("Ada Byron", "Ada Byron died in London in 1852.")
    assert read_statement("When did Ada Byron die?", [died]).answer == "1852"  # type: ignore[union-attr]
    assert read_statement("Where did Ada Byron die?", [died]).answer == "London"  # type: ignore[union-attr]
    assert read_statement("Where did Inês Carvalho study?", [PROFILE]).answer == "University of Minho"  # type: ignore[union-attr]
    clause = ("Ruben De Smet", "Ruben studied economics and then worked in Brussels.")
    assert read_statement("Where did Ruben De Smet study?", [clause]) is None  # "then": another clause's place


def test_a_question_typed_without_its_question_mark_is_read_too() -> None:
    assert read_statement("Where was Inês Carvalho born", [PROFILE]).answer == "Braga"  # type: ignore[union-attr]
    assert read_statement("where did Inês Carvalho study", [PROFILE]).answer == "University of Minho"  # type: ignore[union-attr]


def test_grow_up_is_also_read_where_the_text_says_raised() -> None:
    marisol = ("Marisol Okonkwo", "# Marisol Okonkwo Hydrologist at the regional water board. "
               "Born and raised in Porto; moved to Elmstead in 2009.")
    assert read_statement("Where did Marisol Okonkwo grow up?", [marisol]).answer == "Porto"  # type: ignore[union-attr]
    peter = ("Peter Hale", "Peter Hale was brought up in Leeds by his aunt.")
    assert read_statement("Where did Peter Hale grow up?", [peter]).answer == "Leeds"  # type: ignore[union-attr]
    assert read_statement("Where did Peter Hale live?", [peter]) is None  # only "grow up" has another wording


def test_a_verb_s_object_and_a_what_question_are_read() -> None:
    ruth = ("Ruth Amsel", "Ruth Amsel was born in Haarlem and studied history in Leiden.")
    read = read_statement("Where did Ruth Amsel study history?", [ruth])
    assert read is not None and (read.answer, read.column) == ("Leiden", "study history")
    assert read_statement("Where did Ruth Amsel study law?", [ruth]) is None  # not the object the text says
    assert read_statement("What did Ruth Amsel study?", [ruth]).answer == "history"  # type: ignore[union-attr]
    ana = ("Ana Ruiz", "# Ana Ruiz Ana Ruiz grew up in Valencia and runs the plant nursery on Mill Lane.")
    assert read_statement("What does Ana Ruiz run?", [ana]).answer == "the plant nursery"  # type: ignore[union-attr]
    assert read_statement("What does Ana Ruiz do?", [ana]) is None  # "do" has no one value
    owner = ("Ana Ruiz", "Ana Ruiz runs Halyard Labs.")
    assert read_statement("What does Ana Ruiz run?", [owner]).answer == "Halyard Labs"  # type: ignore[union-attr]


def test_a_what_value_keeps_the_names_inside_it_and_a_list_of_names() -> None:
    """"What system did Kestrel replace?" over "replaced the old Falcon system" was read "the
    old" (the thing stopped at the name); "What languages does Amara speak?" over "speaks Igbo,
    English and Swahili" was read "Igbo"."""
    kestrel = ("Kestrel", "Kestrel replaced the old Falcon system, which ran on Oracle 11g.")
    assert read_statement("What system did Kestrel replace?", [kestrel]).answer == "the old Falcon system"  # type: ignore[union-attr]
    amara = ("Amara Okafor", "Amara was born in Enugu. She speaks Igbo, English and Swahili.")
    assert read_statement("What languages does Amara Okafor speak?", [amara]).answer == (  # type: ignore[union-attr]
        "Igbo, English and Swahili"
    )
    owner = ("Ana Ruiz", "Ana Ruiz founded Halyard Labs and moved to Paris.")  # "and" then no name: no list
    assert read_statement("What did Ana Ruiz found?", [owner]).answer == "Halyard Labs"  # type: ignore[union-attr]


def test_a_pronoun_right_after_the_subject_s_sentence_is_the_subject() -> None:
    """A note of several people: "Where did Mei Chen grow up?" over "Mei Chen is a colleague from
    the search team. She grew up in Chengdu." (Gemma answered the aunt's town, Jönköping); not
    when the sentence before names someone else too, whom the pronoun may mean."""
    people = ("People", "# People Birgitta Holm is my aunt; she lives in Jönköping. Mei Chen is a colleague from "
              "the search team. She grew up in Chengdu. Tomás Ruiz joined the team in 2023.")  # fmt: skip
    assert read_statement("Where did Mei Chen grow up?", [people]).answer == "Chengdu"  # type: ignore[union-attr]
    assert read_statement("Where did Tomás Ruiz grow up?", [people]) is None
    other = ("People", "Mei Chen works with Tom Hart. He grew up in Leeds.")
    assert read_statement("Where did Mei Chen grow up?", [other]) is None


def test_who_does_a_thing_is_the_name_before_the_verb_and_the_question_s_object() -> None:
    """"Who owns the billing rewrite?" over meeting notes' "- Tomás will own the billing rewrite."
    (Gemma answered the first attendee); a pronoun or a sentence's opening adverb is no name,
    and two names, none."""
    notes = ("Planning meeting", "# Planning meeting Attendees: Sara Lindholm, Tomás Ruiz ## Decisions - The Q2 "
             "release is moved to 12 May 2025. - Tomás will own the billing rewrite.")  # fmt: skip
    for question in ("Who owns the billing rewrite?", "Who will own the billing rewrite?"):
        assert read_statement(question, [notes]).answer == "Tomás"  # type: ignore[union-attr]
    jonas = ("Jonas Berg", "# Jonas Berg Jonas Berg leads the Kestrel project. Then Mei leads the search team.")
    assert read_statement("Who leads the Kestrel project?", [jonas]).answer == "Jonas Berg"  # type: ignore[union-attr]
    assert read_statement("Who leads the search team?", [jonas]).answer == "Mei"  # type: ignore[union-attr]
    assert read_statement("Who owns the billing rewrite?", [("m", "She owns the billing rewrite.")]) is None
    two = ("m", "Tomás owns the billing rewrite. Sara owned the billing rewrite before.")
    assert read_statement("Who owns the billing rewrite?", [two]) is None


def test_a_release_date_is_read_after_the_version_a_changelog_names() -> None:
    from drrag_cli.answer.statements import read_release

    log = ("Heron changelog", "# Heron changelog ## [1.1.0] - 2023-05-02 ### Added - Usage report export. "
           "## [1.0.0] - 2023-03-14 First stable release. ## [0.9.0] - 2023-01-20 ### Added - Search UI.")
    read = read_release("When was Heron 1.0.0 released?", [log])
    assert read is not None and (read.answer, read.column, read.source) == ("2023-03-14", "version 1.0.0", "text")
    assert read_release("When did Heron v1.0 ship", [log]).answer == "2023-03-14"  # type: ignore[union-attr]
    notes = ("Pilot notes", "Heron 0.9.0 (20 January 2023) went to the pilot customer.")
    assert read_release("When was Heron 0.9 released?", [notes]).answer == "20 January 2023"  # type: ignore[union-attr]
    assert read_release("When was Plover 1.0.0 released?", [log]) is None  # the changelog is not Plover's
    assert read_release("When was Heron 2.0 released?", [log]) is None
    assert read_release("What changed in Heron 1.0.0?", [log]) is None


def test_a_count_is_read_before_the_noun_it_counts() -> None:
    from drrag_cli.answer.statements import read_count

    saltmarsh = ("Saltmarsh: Compact Sentence Embeddings", "We describe Saltmarsh, a compact embedding model. "
                 "Saltmarsh has 22 million parameters and produces 384-dimensional vectors.")
    read = read_count("How many parameters does Saltmarsh have?", [saltmarsh])
    assert read is not None and (read.answer, read.row, read.column) == ("22 million", "Saltmarsh", "parameters")
    osprey = ("Project Osprey", "Osprey is a sailing drone. It carries 12 onboard sensors.")
    assert read_count("How many sensors does Osprey carry?", [osprey]).answer == "12"  # type: ignore[union-attr]
    # a description, not a name: the one count of sensors the fed text states
    assert read_count("How many sensors does the drone carry?", [osprey]).answer == "12"  # type: ignore[union-attr]
    assert read_count("How many dimensions does Saltmarsh have?", [saltmarsh]) is None  # not written so
    tidepool = ("Tidepool", "Saltmarsh has 110 million parameters, says the Tidepool note.")
    assert read_count("How many parameters does Saltmarsh have?", [saltmarsh, tidepool]) is None  # two values


def test_an_object_may_be_a_name() -> None:
    tobias = ("Tobias Lindqvist", "He moved to Belgium in 2018 when his partner took a research position.")
    read = read_statement("When did Tobias Lindqvist move to Belgium?", [tobias])
    assert read is not None and (read.answer, read.column) == ("2018", "move to Belgium")
    assert read_statement("When did Tobias Lindqvist move to France?", [tobias]) is None


def test_what_a_name_is_is_read_from_a_sentence_that_says_it() -> None:
    from drrag_cli.answer.statements import read_definition

    report = ("Saltmarsh: Compact Sentence Embeddings", "Abstract We describe Saltmarsh, a compact sentence "
              "embedding model for document search in small organisations, that work in Dutch.")
    glossary = ("Glossary", "**Saltmarsh** : Our compact sentence embedding model, used for dense retrieval.")
    read = read_definition("What is Saltmarsh?", [glossary, report])
    assert read is not None and (read.answer, read.row, read.document) == (
        "a compact sentence embedding model for document search in small organisations", "Saltmarsh", 1)  # its own
    assert read_definition("What is Saltmarsh?", [glossary]).answer == "Our compact sentence embedding model"  # type: ignore[union-attr]
    design = ("Design: Tidepool, a second-stage reranker", "# Design: Tidepool, a second-stage reranker Status: ok.")
    assert read_definition("What is Tidepool?", [design]).answer == "a second-stage reranker"  # type: ignore[union-attr]
    weak = ("Saltmarsh: Compact Sentence Embeddings", "Saltmarsh is weak on queries of one or two words.")
    assert read_definition("What is Saltmarsh?", [weak]) is None  # "is weak": not what it is
    assert read_definition("What is the plan?", [report]) is None  # a description, not a name
    kelp = ("Infrastructure", "Kelp is the network storage box in the Porto office (96 TB raw, RAID 6).")
    assert read_definition("What is Kelp?", [kelp]).answer == "the network storage box in the Porto office"  # type: ignore[union-attr]


def test_who_is_a_name_reads_its_profile_s_role() -> None:
    from drrag_cli.answer.statements import read_definition

    maren = ("Maren Okafor", "# Maren Okafor | | | |---|---| | **Role** | Co-founder, CEO and head of research | "
             "| **Office** | Ghent |")
    read = read_definition("Who is Maren Okafor?", [maren])
    assert read is not None and (read.answer, read.column, read.source) == (
        "Co-founder, CEO and head of research", "Role", "table")
    priya = ("Priya Raman", "Priya was born in Coimbatore and studied electronics there before moving to Bengaluru.")
    assert read_statement("What did Priya Raman study?", [priya]).answer == "electronics"  # type: ignore[union-attr]


def test_the_section_whose_heading_the_question_says_is_read() -> None:
    from drrag_cli.answer.sections import read_section

    works = ("Tobias Lindqvist", "## What he works on Ranking, indexing, query parsing and evaluation harnesses. "
             "He reviews most changes.")
    outside = ("Tobias Lindqvist", "## Outside work Tobias is a keen long-distance skater. He bakes buns.")
    ask = ("Tobias Lindqvist", "## Ask me about - inverted indexes, BM25 and hybrid ranking - Swedish fika etiquette")
    docs = [works, outside, ask]
    read = read_section("What does Tobias Lindqvist work on?", docs)
    assert read is not None and (read.answer, read.column) == (
        "Ranking, indexing, query parsing and evaluation harnesses.", "What he works on")
    outdoors = read_section("What does Tobias Lindqvist do outside work?", docs)  # two words fit, against one
    assert outdoors is not None and outdoors.answer == "Tobias is a keen long-distance skater."
    listed = read_section("What can I ask Tobias Lindqvist about?", docs)
    assert listed is not None and (listed.answer, listed.source) == (
        "inverted indexes, BM25 and hybrid ranking; Swedish fika etiquette", "list")
    assert read_section("Where was Tobias Lindqvist born?", docs) is None  # no heading says "born"
    assert read_section("What does the search lead work on?", docs) is None  # the note is not named


def test_the_one_count_of_the_asked_noun_is_read_with_its_bound() -> None:
    from drrag_cli.answer.statements import read_count

    halliburton = ("Halliburton", "An American multinational corporation. It has operations in more than 70 "
                   "countries and employs approximately 50,000 people.")
    parkin = ("Scott Parkin", "Scott Parkin (born 1969) is a critic of corporations such as Halliburton.")
    asked = "Scott Parkin is a critic of another corporation that has operations in how many countries?"
    read = read_count(asked, [parkin, halliburton])
    assert read is not None and (read.answer, read.row, read.column) == ("more than 70", "Halliburton", "countries")
    castle = ("Montezuma Castle", "It was built between 1100 and 1425 AD, over the course of three centuries.")
    assert read_count("Over how many centuries was it built?", [castle]).answer == "three"  # type: ignore[union-attr]
    singer = ("Engelbert Humperdinck", "He has sold more than 150 million records worldwide.")
    said = "A singer who has sold more than how many records worldwide?"  # the bound is the question's own
    assert read_count(said, [singer]).answer == "150 million"  # type: ignore[union-attr]
    road = ("Clarksville", "Clarksville lies some 45 miles northwest of Nashville.")
    assert read_count("How many miles are there between Nashville and Clarksville?", [road]).answer == "45"  # type: ignore[union-attr]
    other = ("ExxonMobil", "ExxonMobil operates in 60 countries.")
    assert read_count(asked, [parkin, halliburton, other]) is None  # two counts
    assert read_count("How many times did Halliburton move?", [halliburton]) is None  # too often counted in passing


def test_a_year_question_and_any_past_participle_ask_when() -> None:
    champ = ("Champ Bailey", 'Roland "Champ" Bailey Jr. (born June 22, 1978) is a cornerback. He was drafted by the '
             "Washington Redskins in the first round of the 1999 NFL Draft. He is the brother of Boss Bailey.")
    boss = ("Boss Bailey", 'Rodney "Boss" Bailey (born October 14, 1979) is a linebacker. He was originally drafted '
            "by the Detroit Lions in the second round of the 2003 NFL Draft.")
    read = read_statement("What year was Boss Bailey drafted?", [champ, boss])
    assert read is not None and (read.answer, read.column, read.document) == ("2003", "drafted", 1)
    assert read_statement("In which year was Champ Bailey drafted?", [champ, boss]).answer == "1999"  # type: ignore[union-attr]
    # a sentence elsewhere must name the subject whole: Champ's "(born June 22, 1978)" is not Boss's
    assert read_statement("When was Boss Bailey born?", [champ, boss]).answer == "October 14, 1979"  # type: ignore[union-attr]
    assert read_statement("When was Champ Bailey born?", [champ, boss]).answer == "June 22, 1978"  # type: ignore[union-attr]
    assert read_statement("In what year was Champ Bailey born?", [champ, boss]).answer == "1978"  # type: ignore[union-attr]


def test_which_kind_a_participle_and_its_preposition_read_the_name_after_them() -> None:
    plover = ("Plover", "Plover is the telemetry pipeline that Halyard Labs builds and operates for Vellmar Water "
              "Authority. It collects readings from pumping stations.")
    read = read_statement("Which client is Plover built for?", [plover])
    assert read is not None and (read.answer, read.column) == ("Vellmar Water Authority", "built for")
    jaws = ("Jaws (film)", "Jaws is a 1975 American thriller film directed by Steven Spielberg.")
    assert read_statement("Which director was Jaws directed by?", [jaws]).answer == "Steven Spielberg"  # type: ignore[union-attr]
    assert read_statement("Which client is Plover designed for?", [plover]) is None  # not the text's verb
    assert read_statement("Which client is Plover built?", [plover]) is None  # no preposition to read after


def test_a_definition_may_follow_an_aside_or_the_full_name_in_the_name_s_own_document() -> None:
    from drrag_cli.answer.statements import read_definition

    derrickson = ("Scott Derrickson", "Scott Derrickson (born July 16, 1966) is an American director and producer.")
    assert read_definition("Who is Scott Derrickson?", [derrickson]).answer == "an American director and producer"  # type: ignore[union-attr]
    temple = ("Shirley Temple", "Shirley Temple Black (April 23, 1928 – February 10, 2014) was an American actress, "
              "singer and diplomat.")
    lake = ("Temple Lake", "Shirley Temple Lake is a reservoir in Utah.")
    read = read_definition("What is Shirley Temple?", [lake, temple])
    assert read is not None and (read.answer, read.document) == ("an American actress", 1)
    assert read_definition("What is Shirley Temple?", [lake]) is None  # another document's longer name


def test_which_kind_does_a_name_verb_reads_what_follows_the_verb() -> None:
    """"Which instrument does Priya Raman play?" over "Priya plays the veena and performs …"
    (Gemma answered "Carnatic music"); "What year did … ?" reads the year; an object after
    the verb ("play for") is no such question."""
    priya = ("Priya Raman", "Priya was born in Coimbatore. Priya plays the veena and performs with an ensemble. "
             "She moved to Ghent in 2019.")  # fmt: skip
    for question in ("Which instrument does Priya Raman play?", "What musical instrument does Priya Raman play?"):
        assert read_statement(question, [priya]).answer == "the veena"  # type: ignore[union-attr]
    assert read_statement("What year did Priya Raman move to Ghent?", [priya]).answer == "2019"  # type: ignore[union-attr]
    assert read_statement("Which ensemble does Priya Raman play with?", [priya]) is None


def test_a_name_particle_is_no_verb() -> None:
    """"Where did Sanne de Vries study?" read "de" as the question's verb, so nothing was
    read and the model answered her birthplace."""
    sanne = ("Sanne de Vries", "Sanne was born in Utrecht and studied mathematics at Leiden University.")
    assert read_statement("Where did Sanne de Vries study?", [sanne]).answer == "Leiden University"  # type: ignore[union-attr]
    gogh = ("Vincent van Gogh", "Vincent van Gogh moved to Arles in 1888.")
    assert read_statement("When did Vincent van Gogh move to Arles?", [gogh]).answer == "1888"  # type: ignore[union-attr]


def test_a_possessive_subject_is_someone_else() -> None:
    """"Where was Tobias Lindqvist's mother born?" is not read from "Tobias was born in Uppsala"."""
    tobias = ("Tobias Lindqvist", "Tobias was born in Uppsala, where his parents ran a boat-repair workshop.")
    assert read_statement("Where was Tobias Lindqvist's mother born?", [tobias]) is None
    assert read_statement("Where was Tobias Lindqvist born?", [tobias]).answer == "Uppsala"  # type: ignore[union-attr]


CARDINALE = (
    "Claudia Cardinale",
    "Claudia Cardinale was born Claude Joséphine Rose Cardinale in La Goulette, a neighborhood of Tunis, on "
    "15 April 1938. Her mother, Yolande Greco, was born in Tunisia to Sicilian emigrants.",
)


def test_a_birth_name_may_stand_before_the_place_and_a_relative_s_birthplace_is_not_read() -> None:
    for question in ("Where was Claudia Cardinale born?", "In which city was Claudia Cardinale born?"):
        assert read_statement(question, [CARDINALE]).answer == "La Goulette"  # type: ignore[union-attr]


def test_where_someone_is_from_is_where_they_were_born() -> None:
    for question in ("Where is Claudia Cardinale from?", "What city is Claudia Cardinale from?"):
        read = read_statement(question, [CARDINALE])
        assert read is not None and (read.answer, read.column) == ("La Goulette", "from")
    assert read_statement("What country is Claudia Cardinale from?", [CARDINALE]) is None  # not a city
    assert read_statement("Where is the lead of Heron from?", [CARDINALE]) is None  # a description, not a name


def test_said_as_adds_born_to_where_someone_is_from() -> None:
    from drrag_cli.answer.statements import said_as

    assert said_as("Where is Aiko Tanabe from?") == "Where is Aiko Tanabe from? born"
    assert said_as("What city is   from?") == "What city is   from? born"
    assert said_as("Where did Aiko Tanabe study?") == "Where did Aiko Tanabe study?"


def test_dates_said_as_a_list_are_one_answer() -> None:
    """"Forest won the FA Cup in 1898 and 1959": both years, not the first (MuSiQue dev100);
    a "What year" question still reads one."""
    club = [("Nottingham Forest F.C.", "Forest won the FA Cup in 1898 and 1959. They won the league in 1978.")]
    assert read_statement("When did Nottingham Forest win the FA Cup?", club).answer == "1898 and 1959"  # type: ignore[union-attr]
    assert read_statement("What year did Nottingham Forest win the FA Cup?", club).answer == "1898"  # type: ignore[union-attr]
    born = [("Ada Brook", "Ada Brook was born on 3 March 1987 and raised in Leeds.")]
    assert read_statement("When was Ada Brook born?", born).answer == "3 March 1987"  # type: ignore[union-attr]
