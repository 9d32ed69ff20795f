"""The shared warm Service on the real tiny index: documents, errors, concurrency, the LLM
queue, cancellation and generation switches."""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from drrag_cli.errors import BusyError, InputError
from drrag_cli.serve.service import Cancelled, LLMQueue, Service


def test_search_is_the_cli_document(service: Service) -> None:
    doc = service.search("Where was Mara Quint born?", k=2)
    assert doc["mode"] == "hybrid" and doc["query"] == "Where was Mara Quint born?"
    assert len(doc["results"]) == 2 and "Tromsø" in doc["results"][0]["text"]
    assert set(doc["results"][0]) >= {"rank", "score", "passage_id", "title", "source", "lines", "text"}
    assert service.search("observatory", mode="bm25", k=1)["results"][0]["page"] == 1
    context = service.search("Where was the lead engineer of Project Heron born?", strategy="cfs", k=2)
    assert context["strategy"] == "cfs" and context["documents"] and "text" in context["documents"][0]


def test_user_errors_are_the_cli_errors(service: Service) -> None:
    with pytest.raises(InputError, match="unknown search mode"):
        service.search("x", mode="fuzzy")
    with pytest.raises(InputError, match="at least 1"):
        service.search("x", k=0)
    with pytest.raises(InputError, match="no passage 999999"):
        service.get_passage(999999)


def test_get_passage_and_document(service: Service, served) -> None:  # noqa: ANN001
    _, corpus = served
    hit = service.search("Mara Quint born", k=1)["results"][0]
    passage = service.get_passage(hit["passage_id"])
    assert passage["text"] == hit["text"] and passage["source"] == hit["source"]
    heron = str(corpus / "notes" / "heron.md")
    whole = service.get_document(heron)
    assert whole["text"] == (corpus / "notes" / "heron.md").read_text().rstrip("\n")
    assert service.get_document(heron, (4, 4)) == {
        "source": heron,
        "title": whole["title"],
        "lines": [4, 4],
        "text": "# Project Heron",
    }
    pdf = service.get_document(str(corpus / "wiki" / "report.pdf"))
    assert "2.4 metres" in pdf["text"]


@pytest.mark.parametrize("source", ["/etc/passwd", "../../../../etc/passwd", "notes/heron.md", ""])
def test_get_document_reads_only_indexed_sources(service: Service, served, source: str) -> None:  # noqa: ANN001
    with pytest.raises(InputError, match="not a source in the index"):
        service.get_document(source)
    _, corpus = served
    with pytest.raises(InputError, match="lines must be"):
        service.get_document(str(corpus / "notes" / "heron.md"), (5, 2))


def test_concurrent_searches_agree(service: Service) -> None:
    queries = ["Mara Quint", "Kestrel radar", "Lark telescope", "Osprey drone"] * 6
    alone = {q: service.search(q, k=3)["results"] for q in set(queries)}
    with ThreadPoolExecutor(8) as pool:
        together = list(pool.map(lambda q: service.search(q, k=3)["results"], queries))
    assert together == [alone[q] for q in queries]


def test_ask_answers_with_citations_and_streams(service: Service) -> None:
    pieces: list[str] = []
    doc = service.ask("Where was the lead engineer of Project Heron born?", k=4, on_token=pieces.append)
    assert doc["answer"] and "".join(pieces).strip() == doc["answer"].strip()
    assert doc["llm_calls"] == 1 and doc["strategy"] == "cfs"
    assert any(c["source"].endswith("mara.txt") for c in doc["citations"])
    assert set(doc) >= {"question", "supported", "documents", "tokens_fed", "timings"}


def test_cancelled_generation_stops_and_frees_the_llm(service: Service) -> None:
    seen: list[str] = []
    with pytest.raises(Cancelled):  # a long answer, stopped when the client leaves after 3 tokens
        service.ask("Why was Project Heron started?", on_token=seen.append, cancelled=lambda: len(seen) >= 3)
    assert len(seen) == 3
    with pytest.raises(Cancelled):  # gone before its turn: no generation at all
        service.ask("Why was Project Heron started?", on_token=seen.append, cancelled=lambda: True)
    assert len(seen) == 3
    assert service.queue.waiting == 0
    assert service.ask("Where was Mara Quint born?")["answer"]  # the LLM is free again


def test_busy_llm_is_a_busy_error(service: Service) -> None:
    assert service.queue.acquire(1.0)  # another request holds the LLM
    timeout = service._generator.timeout  # type: ignore[union-attr]
    service._generator.timeout = 0.3  # type: ignore[union-attr]
    try:
        with pytest.raises(BusyError, match="LLM is busy"):
            service.ask("Why was Project Heron started?")  # needs the LLM: "What is …?" is read in code
        assert service.search("Mara", k=1)["results"]  # searches do not wait for the LLM
    finally:
        service._generator.timeout = timeout  # type: ignore[union-attr]
        service.queue.release()


def test_llm_queue_is_first_come_first_served() -> None:
    queue, order = LLMQueue(), []
    assert queue.acquire(1.0)
    waiting = []
    for n in range(4):
        t = threading.Thread(target=lambda n=n: (queue.acquire(5.0), order.append(n), queue.release()))
        t.start()
        waiting.append(t)
        while queue.waiting < n + 1:
            threading.Event().wait(0.005)
    queue.release()
    for t in waiting:
        t.join()
    assert order == [0, 1, 2, 3] and queue.waiting == 0
    assert queue.acquire(0.1)  # free again
    assert not queue.acquire(0.1)  # held: a bounded wait
    with pytest.raises(Cancelled):
        queue.acquire(5.0, cancelled=lambda: True)
    assert queue.waiting == 0


def test_switches_to_a_new_generation(tmp_path: Path) -> None:
    from drrag_cli.config import Settings
    from drrag_cli.index.api import Index
    from tests.conftest import write_corpus

    corpus = write_corpus(tmp_path / "corpus")
    settings = Settings().replace({"index.path": str(tmp_path / "ix")})
    Index.build([corpus], settings)
    svc = Service(settings)
    svc.load()
    first = svc.status()["generation"]
    before = svc._live
    (corpus / "notes" / "wren.md").write_text("# Wren\n\nProject Wren counts zzquokka colonies.\n")
    Index.build([corpus], settings)
    hits = svc.search("zzquokka", mode="bm25", k=1)["results"]  # the next request sees it
    assert hits and hits[0]["source"].endswith("wren.md")
    assert svc.status()["generation"] != first and svc.switches == 1
    assert before is not None and before.index.search("Mara", mode="bm25", k=1)  # an old holder still reads
    assert not svc.refresh()
