"""Human output (rich). Scripts use --json instead; nothing here is parsed."""

from __future__ import annotations

import os
import time
from typing import TYPE_CHECKING, Any

from drrag_cli.cli.common import stdout_console
from drrag_cli.types import Hit, Passage

if TYPE_CHECKING:
    from rich.console import Console

    from drrag_cli.index.build import BuildReport
    from drrag_cli.results import AskResult
    from drrag_cli.retrieve.context import RetrievalResult


def display_path(source: str) -> str:
    """Paths under the working directory are shown relative to it."""
    path, sep, frag = source.partition("#")
    try:
        rel = os.path.relpath(path)
        path = rel if not rel.startswith("..") else path
    except ValueError:
        pass
    return path + sep + frag


def location(p: Passage) -> str:
    loc = p.location
    return display_path(p.source) + loc[len(p.source) :]


def titled(p: Passage) -> str:
    """The title a citation shows: ``notes › Heron overview`` when the passage came from a
    named collection, else just the title."""
    return f"{p.collection} › {p.title}" if p.collection else p.title


def snippet(text: str, width: int = 240) -> str:
    return text if len(text) <= width else text[: width - 1].rsplit(" ", 1)[0] + "…"


def print_hits(hits: list[Hit], query: str, mode: str) -> None:
    from rich.markup import escape

    console = stdout_console()
    if not hits:
        console.print(f"no results for {query!r} ({mode})", highlight=False)
        return
    for h in hits:
        p = h.passage
        console.print(
            f"[bold]{h.rank:>2}.[/bold] [cyan]{h.score:.4f}[/cyan]  [bold]{escape(titled(p))}[/bold]  "
            f"[dim]{escape(location(p))}[/dim]",
            highlight=False,
        )
        console.print(f"    {escape(snippet(p.text))}", highlight=False, soft_wrap=False)


def _size(n: float) -> str:
    for unit in ("B", "KB", "MB", "GB"):
        if n < 1024 or unit == "GB":
            return f"{n:.0f} {unit}" if unit == "B" else f"{n:.1f} {unit}"
        n /= 1024
    return f"{n:.1f} GB"  # pragma: no cover


def print_status(info: dict[str, Any]) -> None:
    from rich.table import Table

    table = Table(show_header=False, box=None)
    stamp = info.get("updated_at")
    rows = [
        ("index", info["index"]),
        ("files", str(info["files"])),
        ("documents", str(info["documents"])),
        ("passages", str(info["passages"])),
        ("size on disk", _size(info["size_bytes"])),
        ("embedding model", f"{info['embedding_model']} (dim {info['embedding_dim']})"),
        ("chunk words", str(info["chunk_words"])),
        ("roots", ", ".join(display_path(r) for r in info["roots"])),
        ("last update", time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(stamp)) if stamp else "-"),
    ]
    for key, value in rows:
        table.add_row(f"[bold]{key}[/bold]", value)
    stdout_console().print(table)


def print_collections(rows: list[dict[str, Any]]) -> None:
    """`drrag status`: one line per collection."""
    from rich.table import Table

    table = Table("collection", "files", "passages", "size", "model", "last sync", box=None)
    for r in rows:
        if "error" in r:
            table.add_row(r["name"], "-", "-", "-", "-", r["error"])
            continue
        stamp = r.get("last_sync")
        when = time.strftime("%Y-%m-%d %H:%M", time.localtime(stamp)) if stamp else "-"
        table.add_row(
            r["name"], str(r["files"]), str(r["passages"]), _size(r["size_bytes"]), r["embedding_model"], when
        )
    stdout_console().print(table)


def print_answer(result: AskResult, already_streamed: bool = False, streamed_text: str = "") -> None:
    """The answer, how it was got, warnings, and the sources. After ``--stream`` printed
    ``streamed_text`` (the model's raw tokens), the short answer follows when post-processing
    changed it (" in Uppsala, Sweden" → "answer: Uppsala")."""
    from rich.markup import escape

    console = stdout_console()
    if already_streamed and streamed_text:  # an answer found without the model streamed nothing: printed below
        console.print()
        final = result.answer.text if result.answer else ""
        if final and final.strip() != streamed_text.strip():
            console.print(f"[bold]answer:[/bold] {escape(final)}", highlight=False)
    else:
        console.print(escape(result.answer.text if result.answer else ""), highlight=False)
    if result.answer:
        _print_how(result.answer, result.question, console)
        _print_warnings(result.answer, result.question, console)
    if result.fed:
        console.print()
        console.print("[bold]Sources[/bold]")
    for n, p in enumerate(result.fed, start=1):
        console.print(f" [{n}] {escape(titled(p))} — [dim]{escape(location(p))}[/dim]", highlight=False)
    if result.answer and result.answer.trimmed:
        console.print(
            f"[yellow]note:[/yellow] {len(result.answer.trimmed)} lower-ranked passage(s) left out to fit llm.n_ctx",
            highlight=False,
        )
    print_method_notes(result.retrieval, console)
    if result.note is not None:
        console.print(
            f"[dim]adaptive-note: {result.llm_calls} LLM calls, {len(result.note.queries)} queries, "
            f"stopped: {escape(result.note.stop_reason)}[/dim]",
            highlight=False,
        )
        for line in result.note.fallbacks:
            console.print(f"[yellow]note:[/yellow] {escape(line)}", highlight=False)


def _as_json(found: Any) -> dict[str, Any]:
    """An answer's Comparison / Lookup / Evidence locally, or its JSON from a server, as JSON."""
    return found if isinstance(found, dict) else found.to_json()


def _print_how(answer: Any, question: str, console: Console) -> None:
    """How the answer was got: the question asked, a comparison or table cell decided in
    code, the sentence that states it."""
    from rich.markup import escape

    if answer.asked not in ("", question):
        console.print(f"[dim]asked as: {escape(answer.asked)}[/dim]", highlight=False)
    compared, looked_up = getattr(answer, "compared", None), getattr(answer, "looked_up", None)
    found = getattr(answer, "evidence", None)  # computed from the fed text: read once
    if compared is not None:
        c = _as_json(compared)
        values = " vs ".join(f"{side}: {shown}" for side, shown in c["values"].items())
        kinds = {"time": "dates", "origin": "nationalities", "shared": "what each is", "alike": "what each side is",
                 "checked": "what is stated with what is asked"}  # fmt: skip
        what = kinds.get(c["kind"], "numbers")
        console.print(f"[dim]compared {what}: {escape(values)} (no model call)[/dim]", highlight=False)
    if looked_up is not None:
        cell = _as_json(looked_up)
        where = {"text": "the text", "list": "a list"}.get(cell.get("source", ""), "a table")
        console.print(
            f"[dim]read from {where}: {escape(cell['row'])} › {escape(cell['column'])} (no model call)[/dim]",
            highlight=False,
        )
    picked = getattr(answer, "picked", None)
    if picked is not None:
        p = _as_json(picked)
        console.print(
            f"[dim]the model copied a sentence; the answer is the one source that is a {escape(p['kind'])}[/dim]",
            highlight=False,
        )
    if found is not None:
        ev = _as_json(found)
        console.print(f"[dim]found in [{ev['citation']}]: {escape(ev['text'])}[/dim]", highlight=False)


def _print_warnings(answer: Any, question: str, console: Console) -> None:
    """Passages held out for addressing the model; an answer no source states."""
    from rich.markup import escape

    if answer.suspicious:
        names = ", ".join(location(s.passage) for s in answer.suspicious)
        tail = f"; withheld the answer {answer.withheld!r}, found only there" if answer.withheld else ""
        console.print(
            f"[yellow]suspicious:[/yellow] {escape(names)} address(es) the model; "
            f"not shown to it{escape(tail)}",
            highlight=False,
        )
    if answer.supported or not answer.passages:
        return
    why = answer.verdict.why
    if why.startswith("no-answer"):  # nothing to trust or distrust: say why there is no answer
        console.print(f"[yellow]no answer:[/yellow] read the sources below; {_WHY[why]}", highlight=False)
        return
    said = _WHY.get(why, _WHY["absent"])
    if why == "second-choice":
        said += f" (its first, {escape(repr(answer.reasked))}, only repeated the question)"
    console.print(
        f"[yellow]unsupported:[/yellow] the answer {said}; check the sources before trusting it",
        highlight=False,
    )


_WHY = {  # an answer's verdict (answer.Verdict.why), as the CLI says it
    "no-answer": "the model found none in them",
    "no-answer-strayed": "the model's own answer was not in them",
    "echo": "only repeats the question",
    "second-choice": "is the model's second choice",
    "strayed": "is copied from the sources below, but the model's own answer was not in them",
    "elsewhere": "is in the sources below, but not where they speak of the question",  # a picked year/number
    "absent": "is not in the sources below",
}


def print_method_notes(retrieval: RetrievalResult, console: Console) -> None:
    """One line each for DMQR (rewrites, fallbacks) and DSLR (tokens saved, rescued/dropped passages)."""
    from rich.markup import escape

    rw = retrieval.rewrites
    if rw is not None:
        used = [r.strategy for r in rw.items if r.usable]
        console.print(
            f"[dim]dmqr: {len(used)} rewrite(s) ({', '.join(used) or 'none'}) + the question, "
            f"{rw.llm_calls} LLM call(s)[/dim]",
            highlight=False,
        )
        for line in rw.fallbacks:
            console.print(f"[yellow]note:[/yellow] {escape(line)}", highlight=False)
    ref = retrieval.refined
    if ref is not None:
        console.print(
            f"[dim]dslr: {ref.tokens_before} → {ref.tokens_after} tokens (threshold {ref.threshold:.3f})[/dim]",
            highlight=False,
        )
        for line in ref.notes:
            console.print(f"[yellow]note:[/yellow] {escape(line)}", highlight=False)


def print_context(retrieval: RetrievalResult) -> None:
    """`drrag search --strategy X`: the documents that would be fed to the LLM."""
    from rich.markup import escape

    console = stdout_console()
    if not retrieval.documents:
        console.print("no documents selected", highlight=False)
    fed = {p.passage_id: p.text for p in retrieval.passages}  # DSLR-refined text when refined
    for n, d in enumerate(retrieval.documents, start=1):
        prob = "" if d.classifier_prob is None else f"  p={d.classifier_prob:.2f}"
        console.print(
            f"[bold]{n:>2}.[/bold] [magenta]{d.stage:<11}[/magenta] [cyan]{d.score:.4f}[/cyan]{prob}  "
            f"[bold]{escape(titled(d.passage))}[/bold]  [dim]{escape(location(d.passage))}[/dim]",
            highlight=False,
        )
        text = fed.get(d.passage.passage_id)
        shown = escape(snippet(text)) if text is not None else "[dim](dropped by dslr)[/dim]"
        console.print(f"    {shown}", highlight=False)
    print_method_notes(retrieval, console)


def print_trace(retrieval: RetrievalResult, console: Console) -> None:
    """--explain: every stage of the strategy, readable."""
    from rich.markup import escape

    t = retrieval.trace
    if "dmqr" in t:
        _trace_dmqr(t["dmqr"], console)
    if "steps" in t:
        _trace_note(t, console)
        return
    console.print(
        f"[bold]strategy[/bold] {t.get('strategy')}  k={t.get('k')}  first stage={t.get('first_stage')}"
        + (f"  k1={t['k1']}" if "k1" in t else "")
        + (f"  threshold={t['threshold']:.3f}" if "threshold" in t else ""),
        highlight=False,
    )
    for c in t.get("candidates", []):
        console.print(f"  candidate {escape(c['title'])}  score={c['score']}", highlight=False)
    for s in t.get("static", []):
        console.print(
            f"  [green]static[/green] #{s['passage_id']} {escape(s['title'])}  score={s['score']}", highlight=False
        )
    for q in t.get("queries", []):
        hop = " (third hop)" if q.get("third_hop") else " (spare)" if q.get("spare") else ""
        console.print(f"  [bold]q*{hop}[/bold] from #{q['from']}: {escape(snippet(q['text'], 160))}", highlight=False)
        for pid in q.get("picked", []):
            console.print(f"      picked #{pid}", highlight=False)
        for c in q.get("candidates", []):
            prob = "-" if c["classifier_prob"] is None else f"{c['classifier_prob']:.3f}"
            style = "green" if c["decision"] == "kept" else "dim"
            named = f", named {escape(c['named'])}" if c.get("named") else ""
            console.print(
                f"      [{style}]{c['rank']:>2}. p={prob}  {escape(c['title'])}  ({c['decision']}{named})[/{style}]",
                highlight=False,
            )
    for d in t.get("dropped", []):
        console.print(
            f"  [red]dropped[/red] #{d['passage_id']} {escape(d['title'])}: {d['reason']} "
            f"(best pair p={d['best_pair_prob']})",
            highlight=False,
        )
    console.print(f"  [bold]kept[/bold] {t.get('kept')}", highlight=False)
    if "dslr" in t:
        _trace_dslr(t["dslr"], console)


def _trace_dmqr(d: dict[str, Any], console: Console) -> None:
    from rich.markup import escape

    head = f"[bold]dmqr[/bold] requested {','.join(d['requested'])}  ran {','.join(d['chosen'])}"
    if d.get("selection"):
        head += f"  (selector said: {escape(d['selection'])})"
    console.print(head, highlight=False)
    for q in d.get("queries", []):
        console.print(
            f"  [bold]{q['strategy']:<8}[/bold] {escape(snippet(q['text'], 160))}  top {q['top']}", highlight=False
        )
    for r in d["rewrites"]:
        if r["status"].startswith("skipped"):
            console.print(f"  [yellow]{r['strategy']:<8}[/yellow] {escape(r['status'])}", highlight=False)
    console.print(f"  fused top {d.get('fused_top')}", highlight=False)


def _trace_dslr(d: dict[str, Any], console: Console) -> None:
    from rich.markup import escape

    console.print(
        f"[bold]dslr[/bold] threshold {d['threshold']}  sentences {d['sentences_before']} → {d['sentences_after']}"
        f"  tokens {d['tokens_before']} → {d['tokens_after']}",
        highlight=False,
    )
    for p in d["passages"]:
        scores = " ".join(
            f"[green]{s:.2f}[/green]" if i in p["kept"] else f"[dim]{s:.2f}[/dim]" for i, s in enumerate(p["scores"])
        )
        flag = "  (dropped)" if p["dropped"] else "  (best sentence kept)" if p["rescued"] else ""
        console.print(f"  #{p['passage_id']} {escape(p['title'])}: {scores}{flag}", highlight=False)


def _trace_note(t: dict[str, Any], console: Console) -> None:
    from rich.markup import escape

    console.print(f"[bold]adaptive-note[/bold] stop: {escape(str(t.get('stop_reason')))}", highlight=False)
    for step in t["steps"]:
        label = f"{step.get('step')} {step.get('n', '')}".strip()
        console.print(
            f"  [bold]{escape(label)}[/bold] query: {escape(snippet(str(step.get('query', '')), 160))}"
            f"  retrieved {step.get('retrieved')}  verdict: {escape(str(step.get('verdict', '-')))}",
            highlight=False,
        )
        console.print(f"    note: {escape(snippet(str(step.get('note', '')), 400))}", highlight=False)


MAX_WARNINGS = 10  # warning lines of an index run shown without --verbose; the rest are counted


def warning_lines(report: BuildReport, verbose: bool) -> list[str]:
    """One line per file whose text was changed to be read (bytes replaced, NULs removed)
    or that kept its passages unread, and for an index left empty: shown without
    --verbose, as the text searched is not the file's; the first ``MAX_WARNINGS``, then
    a count, unless --verbose."""
    items = sorted(report.warnings.items())
    shown = items if verbose else items[:MAX_WARNINGS]
    lines = [f"  warning: {path}: {what}" for path, what in shown]
    if len(items) > len(shown):
        lines.append(f"  ({len(items) - len(shown)} more warnings; --verbose lists them)")
    return lines
