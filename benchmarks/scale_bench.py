"""Where the local backend stops: 10k / 100k / 1M synthetic passages, local vs Milvus Lite (issue 17).

Passages are Wikipedia-like text made from the shared data's paragraphs (HotpotQA dev500 +
MuSiQue dev100 contexts, ~100 words each), perturbed per passage (15% of the words replaced
by words of the whole vocabulary, the title numbered), with random unit 384-d vectors, so
embedding time is left out (``--embed N`` measures it on its own, below).

For each backend and size, two fresh processes:
  * build: local = tantivy BM25 (``build_bm25``) + hnswlib HNSW (M=32, efC=200, as
    index/dense.py, added in chunks) + a SQLite table of the texts (the store's part);
    milvus = the drrag collection (index/milvus/schema.py), rows as ``drrag index`` writes
    them, inserted 1,000 per request, flushed and loaded. Time, peak RSS, disk.
  * query: ``--queries`` queries after 20 warm-ups, top 10 through the backend classes drrag
    reads with (LocalBackend, MilvusBackend): BM25 (8 words of a passage), dense (that
    passage's vector + noise), hybrid (both, depth 50, RRF k 60). p50/p95 ms, RSS after.
RSS counts the process and its children (Milvus Lite 3.x serves in-process, from threads;
the children are counted in case a version spawns a server).

``--embed N`` measures instead what the random vectors leave out: the configured embedder
(index.embedding: the local ONNX MiniLM, all cores) on N of these passages, batch 32 as
``drrag index`` embeds, after one warm-up batch; passages/s and the hours 1M would take.

A build that would pass ``--budget-min`` (or, for Milvus Lite, 8 GB of RSS) stops at that
point, reports the rows it wrote and its rate (the full size's build time is then an
extrapolation, marked), and its queries run on the part that was built.
Between steps the bench waits while /tmp/drrag-quiet exists (timing windows of others).

    .venv/bin/python benchmarks/scale_bench.py [--sizes 10000,100000,1000000] \\
        [--backends local,milvus] [--queries 200] [--budget-min 15] [--out benchmarks/out/scale]
    .venv/bin/python benchmarks/scale_bench.py --embed 2000
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import sqlite3
import statistics
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
DATA = REPO.parent / "shared" / "data"
QUIET = Path("/tmp/drrag-quiet")
DIM, CHUNK, SEED = 384, 10_000, 17
MAX_RSS_MB = 8_000  # a build that grows past this stops and extrapolates (the machine is shared)


# -- synthetic corpus (deterministic by passage id) -------------------------------------
def base_paragraphs() -> list[tuple[str, str]]:
    seen: dict[tuple[str, str], None] = {}
    with open(DATA / "hotpotqa" / "dev500.ircot.jsonl", encoding="utf-8") as fh:
        for line in fh:
            for c in json.loads(line)["contexts"]:
                seen[(c["title"], " ".join(c["paragraph_text"].split()[:120]))] = None
    for ex in json.loads((DATA / "musique" / "dev100.musique.json").read_text(encoding="utf-8")):
        for p in ex["paragraphs"]:
            seen[(p["title"], " ".join(p["paragraph_text"].split()[:120]))] = None
    return list(seen)


class Corpus:
    def __init__(self) -> None:
        self.base = base_paragraphs()
        self.vocab = sorted({w for _t, text in self.base for w in text.split()})

    def passage(self, i: int) -> tuple[str, str]:
        rng = random.Random(i)
        title, text = self.base[i % len(self.base)]
        words = text.split()
        for k in range(len(words)):
            if rng.random() < 0.15:
                words[k] = self.vocab[rng.randrange(len(self.vocab))]
        return f"{title} ({i // len(self.base)})", " ".join(words)

    def query(self, j: int) -> str:
        words = self.passage(j)[1].split()
        start = random.Random(-j).randrange(max(1, len(words) - 8))
        return " ".join(words[start : start + 8])


def vector_chunk(c: int) -> Any:  # noqa: ANN401
    import numpy as np

    v = np.random.default_rng([SEED, c]).standard_normal((CHUNK, DIM), dtype=np.float32)
    return v / np.linalg.norm(v, axis=1, keepdims=True)


def vectors(start: int, stop: int) -> Iterator[tuple[int, Any]]:
    """(first id, vectors) in chunk-aligned pieces covering [start, stop)."""
    for c in range(start // CHUNK, (stop + CHUNK - 1) // CHUNK):
        lo, hi = max(start, c * CHUNK), min(stop, (c + 1) * CHUNK)
        yield lo, vector_chunk(c)[lo - c * CHUNK : hi - c * CHUNK]


# -- measuring ---------------------------------------------------------------------------
def tree_rss_mb(pid: int | None = None) -> float:
    """VmRSS of a process and all its descendants, MB (Milvus Lite serves from a child)."""
    pid = pid or os.getpid()
    kids: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                ppid = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                continue
            kids.setdefault(ppid, []).append(int(entry.name))
    total, todo = 0, [pid]
    while todo:
        p = todo.pop()
        todo += kids.get(p, [])
        try:
            for line in Path(f"/proc/{p}/status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    total += int(line.split()[1])
        except OSError:
            continue
    return round(total / 1024, 1)


def peak_rss_mb() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return round(int(line.split()[1]) / 1024, 1)
    return 0.0


def disk_mb(path: Path) -> float:
    return round(sum(f.stat().st_size for f in path.rglob("*") if f.is_file()) / 1e6, 1)


def wait_quiet() -> None:
    while QUIET.exists():
        time.sleep(20)


def pct(xs: list[float], q: float) -> float:
    xs = sorted(xs)
    return round(xs[min(len(xs) - 1, int(q * len(xs)))] * 1000, 2)


# -- local -------------------------------------------------------------------------------
def build_local(size: int, folder: Path, budget_s: float) -> dict[str, Any]:
    import hnswlib

    from drrag_cli.index.bm25 import build_bm25
    from drrag_cli.index.dense import EF_CONSTRUCTION, M

    corpus, out = Corpus(), {}
    t0 = time.perf_counter()
    conn = sqlite3.connect(folder / "store.sqlite")
    conn.execute("CREATE TABLE passages (id INTEGER PRIMARY KEY, title TEXT, text TEXT)")
    for lo in range(0, size, CHUNK):
        conn.executemany(
            "INSERT INTO passages VALUES (?,?,?)", ((i, *corpus.passage(i)) for i in range(lo, min(size, lo + CHUNK)))
        )
    conn.commit()
    conn.close()
    out["store_s"] = round(time.perf_counter() - t0, 1)
    t0 = time.perf_counter()
    build_bm25(folder / "bm25", ((i, *corpus.passage(i), "") for i in range(size)))
    out["bm25_s"] = round(time.perf_counter() - t0, 1)
    t0 = time.perf_counter()
    index = hnswlib.Index(space="cosine", dim=DIM)
    index.init_index(max_elements=size, ef_construction=EF_CONSTRUCTION, M=M)
    done = 0
    for lo, vecs in vectors(0, size):
        index.add_items(vecs, list(range(lo, lo + len(vecs))), num_threads=-1)
        done = lo + len(vecs)
        if time.perf_counter() - t0 > budget_s and done < size:
            break
    hnsw_s = time.perf_counter() - t0
    if done < size:  # stopped at the budget: rate so far (HNSW inserts slow down as it grows: a lower bound)
        out |= {
            "hnsw_rows": done,
            "hnsw_s_measured": round(hnsw_s, 1),
            "hnsw_s": round(hnsw_s * size / done, 1),
            "extrapolated": True,
        }
    index.save_index(str(folder / "dense.hnsw"))  # a partial one is queried as built (over hnsw_rows)
    out.setdefault("hnsw_s", round(time.perf_counter() - t0, 1))
    return out


def query_local(size: int, folder: Path, queries: list[tuple[str, Any]]) -> dict[str, Any]:
    from drrag_cli.index.backend import LocalBackend

    backend = LocalBackend(folder, DIM, store=None)  # type: ignore[arg-type]
    return timed_queries(backend, queries)


# -- milvus (Lite) -------------------------------------------------------------------------
def milvus_settings(folder: Path) -> Any:  # noqa: ANN401
    from drrag_cli.config import Settings

    return Settings().replace({"index.path": str(folder), "index.backend": "milvus"})


def build_milvus(size: int, folder: Path, budget_s: float) -> dict[str, Any]:
    from drrag_cli.index.milvus import schema
    from drrag_cli.index.milvus.write import _entity

    settings, corpus = milvus_settings(folder), Corpus()
    uri = schema.resolve_uri(settings, folder)
    client = schema.connect(uri, settings)
    schema.ensure_collection(client, "scale", DIM)
    t0, done = time.perf_counter(), 0
    for lo, vecs in vectors(0, size):
        for b in range(0, len(vecs), 1000):
            rows = []
            for k, v in enumerate(vecs[b : b + 1000]):
                i = lo + b + k
                title, text = corpus.passage(i)
                rows.append(
                    _entity(
                        {
                            "pid": i,
                            "document_id": i,
                            "ordinal": 0,
                            "source": f"/c/{i}.txt",
                            "title": title,
                            "text": text,
                            "char_start": 0,
                            "char_end": len(text),
                            "line_start": 1,
                            "line_end": 1,
                            "page": None,
                            "content_hash": str(i),
                        },
                        1,
                        v,
                    )
                )
            client.insert("scale", rows)
        done = lo + len(vecs)
        if done < size and (time.perf_counter() - t0 > budget_s or tree_rss_mb() > MAX_RSS_MB):
            break
    insert_s = time.perf_counter() - t0
    out: dict[str, Any] = {"insert_s": round(insert_s, 1)}
    if done < size:  # a partial one is flushed and queried as built (over insert_rows)
        out |= {
            "insert_rows": done,
            "insert_s_measured": round(insert_s, 1),
            "insert_s": round(insert_s * size / done, 1),
            "extrapolated": True,
        }
    t1 = time.perf_counter()
    client.flush("scale")
    client.release_collection("scale")
    client.load_collection("scale")
    return out | {"flush_load_s": round(time.perf_counter() - t1, 1), "rss_mb": tree_rss_mb()}


def query_milvus(size: int, folder: Path, queries: list[tuple[str, Any]]) -> dict[str, Any]:
    from drrag_cli.index.milvus import schema
    from drrag_cli.index.milvus.search import MilvusBackend

    settings = milvus_settings(folder)
    record = {"uri": schema.resolve_uri(settings, folder), "collection": "scale", "schema": schema.SCHEMA}
    backend = MilvusBackend(record, settings, 1, DIM)
    backend.client  # noqa: B018 - connect and load before timing
    return timed_queries(backend, queries)


# -- shared ----------------------------------------------------------------------------------
def make_queries(size: int, n: int, folder: Path) -> list[tuple[str, Any]]:
    import numpy as np

    built = json.loads((folder / "built.json").read_text()) if (folder / "built.json").exists() else {}
    size = built.get("hnsw_rows") or built.get("insert_rows") or size  # a partial build: query what is there
    corpus, rng = Corpus(), random.Random(SEED)
    picks = [rng.randrange(size) for _ in range(n + 20)]
    noise = np.random.default_rng(SEED).standard_normal((len(picks), DIM), dtype=np.float32) * 0.03
    out = []
    for j, e in zip(picks, noise, strict=True):
        v = vector_chunk(j // CHUNK)[j % CHUNK] + e
        out.append((corpus.query(j), v / np.linalg.norm(v)))
    return out


def timed_queries(backend: Any, queries: list[tuple[str, Any]]) -> dict[str, Any]:  # noqa: ANN401
    calls = {
        "bm25": lambda t, v: backend.bm25_ranked(t, 10),
        "dense": lambda t, v: backend.dense_ranked(v, 10),
        "hybrid": lambda t, v: backend.hybrid_ranked(t, v, 10, 50, 60),
    }
    out: dict[str, Any] = {}
    for mode, call in calls.items():
        for t, v in queries[:20]:
            call(t, v)
        times = []
        for t, v in queries[20:]:
            t0 = time.perf_counter()
            call(t, v)
            times.append(time.perf_counter() - t0)
        out[mode] = {
            "p50_ms": pct(times, 0.5),
            "p95_ms": pct(times, 0.95),
            "mean_ms": round(statistics.mean(times) * 1000, 2),
        }
    out["rss_mb"] = tree_rss_mb()
    return out


def embed_rate(n: int) -> dict[str, Any]:
    """Passages/s of the configured embedder on ``n`` synthetic passages (title line + text)."""
    from drrag_cli.config import Settings
    from drrag_cli.index.embedder import get_embedder, passage_embed_text

    emb = Settings().embedding
    embedder = get_embedder(emb.model, emb.threads, emb.runtime)
    corpus = Corpus()
    texts = [passage_embed_text(*corpus.passage(i)) for i in range(n + emb.batch_size)]
    embedder.encode(texts[: emb.batch_size], batch_size=emb.batch_size)  # loads the model
    wait_quiet()
    t0 = time.perf_counter()
    embedder.encode(texts[emb.batch_size :], batch_size=emb.batch_size)
    seconds = time.perf_counter() - t0
    return {
        "model": emb.model,
        "passages": n,
        "seconds": round(seconds, 1),
        "passages_per_s": round(n / seconds, 1),
        "hours_per_million": round(1e6 / (n / seconds) / 3600, 1),
        "cores": os.cpu_count(),
        "load_avg_1m": os.getloadavg()[0],
    }


def child(args: argparse.Namespace) -> None:
    folder = Path(args.dir)
    if args.child == "build":
        folder.mkdir(parents=True, exist_ok=True)
        build = build_local if args.backend == "local" else build_milvus
        t0 = time.perf_counter()
        result = build(args.size, folder, args.budget_min * 60)
        result["build_s"] = round(time.perf_counter() - t0, 1)
        (folder / "built.json").write_text(json.dumps(result))
    else:
        query = query_local if args.backend == "local" else query_milvus
        result = query(args.size, folder, make_queries(args.size, args.queries, folder))
    result["peak_rss_mb"] = peak_rss_mb()
    print(json.dumps(result))


def run_child(kind: str, backend: str, size: int, folder: Path, args: argparse.Namespace) -> dict[str, Any]:
    wait_quiet()
    cmd = [
        sys.executable,
        __file__,
        "--child",
        kind,
        "--backend",
        backend,
        "--size",
        str(size),
        "--dir",
        str(folder),
        "--queries",
        str(args.queries),
        "--budget-min",
        str(args.budget_min),
    ]
    t0 = time.perf_counter()
    done = subprocess.run(cmd, capture_output=True, text=True, cwd=REPO)
    if done.returncode != 0:
        return {"error": done.stderr.strip().splitlines()[-1] if done.stderr.strip() else f"exit {done.returncode}"}
    result = json.loads(done.stdout.strip().splitlines()[-1])
    result["wall_s"] = round(time.perf_counter() - t0, 1)
    return result


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sizes", default="10000,100000,1000000")
    ap.add_argument("--backends", default="local,milvus")
    ap.add_argument("--queries", type=int, default=200)
    ap.add_argument("--budget-min", type=float, default=15.0)
    ap.add_argument("--out", default=str(REPO / "benchmarks" / "out" / "scale"))
    ap.add_argument("--keep", action="store_true", help="keep the built indexes")
    ap.add_argument("--child", choices=["build", "query"])
    ap.add_argument("--backend")
    ap.add_argument("--size", type=int)
    ap.add_argument("--dir")
    ap.add_argument("--embed", type=int, metavar="N", help="only the embedding throughput on N passages")
    args = ap.parse_args()
    if args.child:
        return child(args)
    if args.embed:
        wait_quiet()
        result = embed_rate(args.embed)
        print(json.dumps(result))
        Path(args.out).mkdir(parents=True, exist_ok=True)
        (Path(args.out) / "embed.json").write_text(json.dumps(result, indent=2) + "\n")
        return None
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    results: list[dict[str, Any]] = []
    for backend in args.backends.split(","):
        for size in (int(s) for s in args.sizes.split(",")):
            folder = out / f"{backend}-{size}"
            shutil.rmtree(folder, ignore_errors=True)
            row: dict[str, Any] = {
                "backend": backend,
                "size": size,
                "build": run_child("build", backend, size, folder, args),
            }
            row["disk_mb"] = disk_mb(folder)
            if "error" not in row["build"]:
                row["query"] = run_child("query", backend, size, folder, args)
            results.append(row)
            print(json.dumps(row), flush=True)
            (out / "results.json").write_text(json.dumps(results, indent=2) + "\n")
            if not args.keep:
                shutil.rmtree(folder, ignore_errors=True)
            if row["build"].get("extrapolated") or "error" in row["build"]:
                break  # larger sizes of this backend would not finish either


if __name__ == "__main__":
    main()
