"""What to run for one question, from a strategy spec such as ``dmqr-adaptive+cfs+dslr``.

    plan = parse_plan("dmqr+cfs")      # Plan(rewrite="dmqr", strategy="cfs", refine=None)

A spec joins up to three parts with ``+``, in any order:

* a rewrite stage: ``dmqr`` (the strategies in ``rewrite.strategies``) or
  ``dmqr-adaptive`` (the LLM picks them per question);
* a DR-RAG strategy: bm25 | sm | hybrid | qdc | cfs | cis (hybrid when only a rewrite or
  refine part is given), or ``note`` (Adaptive-Note, which writes its own queries and so
  takes no other part);
* a refine stage: ``dslr``.

``drrag ask`` / ``search`` also honour ``rewrite.method`` / ``refine.method`` from the
config (and their --rewrite / --refine flags); ``drrag eval`` runs each spec exactly as
written, so a row's name says everything that ran.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from drrag_cli.config import Settings
from drrag_cli.errors import InputError
from drrag_cli.retrieve.strategies import STRATEGIES

REWRITES = ("dmqr", "dmqr-adaptive")
REFINES = ("dslr",)
ITERATIVE = ("note",)
BASES = (*STRATEGIES, *ITERATIVE)


@dataclass(frozen=True)
class Plan:
    strategy: str
    rewrite: str | None = None
    refine: str | None = None
    name: str = ""

    @property
    def uses_classifier(self) -> bool:
        return self.strategy in ("cfs", "cis")

    @property
    def parts(self) -> set[str]:
        return {p for p in (self.rewrite, self.strategy, self.refine) if p}

    def rewrite_strategies(self, settings: Settings) -> list[str]:
        return ["adaptive"] if self.rewrite == "dmqr-adaptive" else list(settings.rewrite.strategies)


def known() -> str:
    extras = f"{' / '.join(REWRITES)} and {' / '.join(REFINES)}"
    return f"{', '.join(BASES)}, optionally joined with {extras} (e.g. dmqr+cfs+dslr)"


def parse_plan(spec: str) -> Plan:
    name = spec.strip().lower()
    parts = [p.strip() for p in name.split("+")]
    if not name or any(not p for p in parts):
        raise InputError(f"empty strategy in {spec!r}; choose from {known()}")
    found: dict[str, str] = {}
    for part in parts:
        kind = "rewrite" if part in REWRITES else "refine" if part in REFINES else "strategy" if part in BASES else None
        if kind is None:
            raise InputError(f"unknown strategy {part!r} in {spec!r}; choose from {known()}")
        if kind in found:
            raise InputError(f"{spec!r} names two {kind} parts ({found[kind]} and {part}); keep one")
        found[kind] = part
    strategy = found.get("strategy", "hybrid")
    if strategy in ITERATIVE and len(parts) > 1:
        raise InputError(f"{spec!r}: note writes its own queries and reads whole passages; run it alone")
    return Plan(strategy, found.get("rewrite"), found.get("refine"), "+".join(parts))


def resolve_plan(spec: str | None, settings: Settings, *, use_config: bool = True) -> Plan:
    """The spec (default ``retrieval.strategy``), plus the config's rewrite / refine methods
    when the spec has none and ``use_config`` (ask / search; eval passes False)."""
    plan = parse_plan(spec or settings.retrieval.strategy)
    if not use_config or plan.strategy in ITERATIVE:
        return plan
    rewrite, refine = plan.rewrite, plan.refine
    method = settings.rewrite.method
    if method not in ("none", "dmqr"):
        raise InputError(f"unknown rewrite.method {method!r} (choose none or dmqr)")
    if rewrite is None and method == "dmqr":
        rewrite = "dmqr-adaptive" if settings.rewrite.strategies == ["adaptive"] else "dmqr"
    method = settings.refine.method
    if method not in ("none", "dslr"):
        raise InputError(f"unknown refine.method {method!r} (choose none or dslr)")
    if refine is None and method == "dslr":
        refine = "dslr"
    parts = [p for p in (rewrite, plan.strategy, refine) if p]
    return replace(plan, rewrite=rewrite, refine=refine, name="+".join(parts))
