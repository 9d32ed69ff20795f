"""A description whose own clause holds the question word, asked of the bridge by name.

"The Curse of the Jade Scorpion is a 2001 film featuring [an American actress who starred in
what for seven years]?" asks what the actress starred in; the film's page names Helen Hunt,
and "Helen Hunt starred in what for seven years?" is the question about her by name. The
definite rules (:mod:`.description`) leave "a / an …" alone (it describes no one the text
has named yet), and "the …" whose clause holds the question word ("… on the animated sitcom
that premiered on which date?"). Here the clause after the description is kept and the
description becomes the entity: a relative clause ("who / that / which <verb> …" → "<entity>
<verb> …"), a possessive one ("whose godfather is whom" → "<entity>'s godfather is whom"), or
a participle before a preposition, or "from", after the kind ("a company headquartered in
what city" → "<entity> is headquartered in what city"). Only when the bridge's document says
the entity is that kind (its name or opening: :func:`.kinds.says_it_is`), and the question
word stands in the clause, not before it. Pure string rules, no model call.
"""

from __future__ import annotations

import re

from drrag_cli.answer.hop.kinds import says_it_is

_WH = r"(?:what|which|whom|who|how|when|where)"
# "a / an", up to six words of the kind, then the clause that holds the question word
_DESCRIBED = re.compile(
    rf"\b(?:a|an|the)\s+(?P<kind>(?:(?!(?:who|that|which|whose|{_WH})\b)[\w'’&.-]+\s+){{1,6}}?)"
    r"(?:(?P<rel>who|that|which)\s+|whose\s+(?P<owned>[a-z][\w-]*)\s+"
    r"|(?P<part>(?:(?-i:[a-z]+ed)|known|born|based|located|headquartered)(?=\s+(?:in|by|at|for|from|on|with|as|to|of)\b)"
    r"|from)\s+)"
    rf"(?P<rest>[^?]*?\b{_WH}\b[^?]*?)\s*\??\s*$",
    re.IGNORECASE,
)
_BEFORE_WH = re.compile(rf"\b{_WH}\b", re.IGNORECASE)
_ARTICLE = re.compile(r"\b(?:a|an|the)\s", re.IGNORECASE)
_NOT_A_VERB = re.compile(r"^(?:[A-Z]|(?:the|a|an|his|her|its|their|he|she|it|they)\b)")


def relative_question(question: str, entity: str, opening: str) -> str | None:
    """``question`` asked of ``entity`` through the first indefinite description whose clause
    holds the question word and whose kind ``opening`` (the entity's document's first
    characters) says the entity is, or None; never when the question word comes before it."""
    if entity.lower() in question.lower():
        return None
    for start in _ARTICLE.finditer(question):
        found = _DESCRIBED.match(question, start.start())
        if found is None or _BEFORE_WH.search(question[: found.start()]):
            continue
        if says_it_is(found.group("kind").split()[-1].lower(), entity, opening):
            return _asked(found, entity)
    return None


def _asked(found: re.Match[str], entity: str) -> str | None:
    """The clause asked of ``entity``: "<entity> <verb> …", "<entity>'s <noun> …" or
    "<entity> is <participle> …"."""
    rest = found.group("rest")
    if found.group("rel"):
        if _NOT_A_VERB.match(rest):
            return None  # "a film that Tom Hanks starred in …": the clause's subject is another
        return f"{entity} {rest}?"
    if found.group("owned"):
        return f"{entity}'s {found.group('owned')} {rest}?"
    return f"{entity} is {found.group('part')} {rest}?"
