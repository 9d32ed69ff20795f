"""What to run for one question, from a strategy spec such as ``dmqr-adaptive+cfs+dslr``.

    plan = parse_plan("dmqr+cfs")      # Plan(strategy="cfs", rewrite="dmqr", refine=None)

A spec joins up to three parts with ``+``, in any order:

* a rewrite stage: ``dmqr`` (the strategies in ``rewrite.strategies``) or
  ``dmqr-adaptive`` (the LLM picks them per question);
* a retrieval strategy: any name in :mod:`drrag_cli.retrieve.registry` (bm25, sm,
  hybrid, qdc, cfs, cis, note, or one registered at run time); hybrid when only a
  rewrite or refine part is given. A strategy that is not ``composable`` (note writes
  its own queries and reads whole passages) takes no other part;
* a refine stage: ``dslr``.

``drrag ask`` / ``search`` also honour ``rewrite.method`` / ``refine.method`` from the
config (:func:`with_methods`); ``drrag eval`` runs each spec exactly as written, so a
row's name says everything that ran.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from drrag_cli.errors import InputError
from drrag_cli.retrieve import registry

REWRITES = ("dmqr", "dmqr-adaptive")
REFINES = ("dslr",)


@dataclass(frozen=True)
class Plan:
    strategy: str
    rewrite: str | None = None
    refine: str | None = None
    name: str = ""

    @property
    def parts(self) -> set[str]:
        return {p for p in (self.rewrite, self.strategy, self.refine) if p}


def known() -> str:
    extras = f"{' / '.join(REWRITES)} and {' / '.join(REFINES)}"
    return f"{', '.join(registry.names())}, optionally joined with {extras} (e.g. dmqr+cfs+dslr)"


def _kind(part: str) -> str | None:
    if part in REWRITES:
        return "rewrite"
    if part in REFINES:
        return "refine"
    return "strategy" if part in registry.names() else None


def parse_plan(spec: str) -> Plan:
    name = spec.strip().lower()
    parts = [p.strip() for p in name.split("+")]
    if not name or any(not p for p in parts):
        raise InputError(f"empty strategy in {spec!r}; choose from {known()}")
    found: dict[str, str] = {}
    for part in parts:
        kind = _kind(part)
        if kind is None:
            raise InputError(f"unknown strategy {part!r} in {spec!r}; choose from {known()}")
        if kind in found:
            raise InputError(f"{spec!r} names two {kind} parts ({found[kind]} and {part}); keep one")
        found[kind] = part
    strategy = found.get("strategy", "hybrid")
    if len(parts) > 1 and not registry.get(strategy).composable:
        raise InputError(f"{spec!r}: {strategy} writes its own queries and reads whole passages; run it alone")
    return Plan(strategy, found.get("rewrite"), found.get("refine"), "+".join(parts))


def with_methods(plan: Plan, rewrite_method: str, adaptive: bool, refine_method: str) -> Plan:
    """The config's ``rewrite.method`` / ``refine.method`` added where the spec has no such
    part (ask / search; eval runs specs as written). Non-composable strategies stay alone."""
    if not registry.get(plan.strategy).composable:
        return plan
    rewrite = plan.rewrite or (("dmqr-adaptive" if adaptive else "dmqr") if rewrite_method == "dmqr" else None)
    refine = plan.refine or ("dslr" if refine_method == "dslr" else None)
    parts = [p for p in (rewrite, plan.strategy, refine) if p]
    return replace(plan, rewrite=rewrite, refine=refine, name="+".join(parts))
