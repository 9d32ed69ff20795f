"""Shared fixtures: a tiny real corpus in every format, settings in a temp dir, a CLI runner.

Tests use the real components (tantivy, hnswlib, MiniLM); the corpus is tiny so the
whole build takes a couple of seconds once the model is loaded (once per process).
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from drrag_cli.config import Settings

SHARED_DATA = Path(__file__).resolve().parents[2] / "shared" / "data"


def make_pdf(path: Path, pages: list[list[str]], title: str | None = None, author: str | None = None) -> None:
    """A minimal valid PDF (Helvetica, one text line per entry) using only the stdlib."""

    def esc(s: str) -> str:
        return s.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)")

    objects: list[bytes] = []
    n_pages = len(pages)
    font_id = 3 + 2 * n_pages
    kids = " ".join(f"{3 + 2 * i} 0 R" for i in range(n_pages))
    objects.append(b"<< /Type /Catalog /Pages 2 0 R >>")
    objects.append(f"<< /Type /Pages /Kids [{kids}] /Count {n_pages} >>".encode())
    for i, lines in enumerate(pages):
        content = "BT /F1 11 Tf 72 740 Td 14 TL " + " ".join(f"({esc(line)}) Tj T*" for line in lines) + " ET"
        data = content.encode("latin-1")
        objects.append(
            f"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents {4 + 2 * i} 0 R "
            f"/Resources << /Font << /F1 {font_id} 0 R >> >> >>".encode()
        )
        objects.append(f"<< /Length {len(data)} >>\nstream\n".encode() + data + b"\nendstream")
    objects.append(b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>")
    info_id = None
    if title or author:
        fields = (f"/Title ({esc(title)}) " if title else "") + (f"/Author ({esc(author)}) " if author else "")
        objects.append(f"<< {fields}>>".encode())
        info_id = len(objects)
    out = bytearray(b"%PDF-1.4\n")
    offsets = []
    for num, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += f"{num} 0 obj\n".encode() + body + b"\nendobj\n"
    xref = len(out)
    out += f"xref\n0 {len(objects) + 1}\n0000000000 65535 f \n".encode()
    for off in offsets:
        out += f"{off:010d} 00000 n \n".encode()
    info = f" /Info {info_id} 0 R" if info_id else ""
    out += f"trailer\n<< /Size {len(objects) + 1} /Root 1 0 R{info} >>\nstartxref\n{xref}\n%%EOF\n".encode()
    path.write_bytes(bytes(out))


def write_notes(root: Path, notes: dict[str, str]) -> Path:
    """``notes`` (file name → text) written under ``root``, which is returned."""
    root.mkdir(parents=True, exist_ok=True)
    for name, text in notes.items():
        (root / name).write_text(text, encoding="utf-8")
    return root


def truncate(path: Path) -> None:
    """Cut ``path`` to half its length in place, as a crash or a full disk may leave a file."""
    with open(path, "r+b") as fh:
        fh.truncate(path.stat().st_size // 2)


def ask_notes(cli: Callable[..., tuple[int, str, str]], root: Path, notes: dict[str, str], question: str) -> dict:
    """``notes`` written under ``root`` and indexed, then ``question`` asked with ``--json``
    (both exit 0): the answer's JSON document."""
    assert cli("index", str(write_notes(root, notes)))[0] == 0
    code, out, err = cli("ask", question, "--json")
    assert code == 0, err
    return json.loads(out)


def write_corpus(root: Path) -> Path:
    """Six formats, with a two-hop fact: Heron's lead (doc A) was born in Tromsø (doc B)."""
    (root / "notes").mkdir(parents=True, exist_ok=True)
    (root / "wiki").mkdir(exist_ok=True)
    (root / "notes" / "heron.md").write_text(
        "---\ntags: [project]\n---\n# Project Heron\n\nProject Heron is a river-monitoring prototype. "
        "The lead engineer is Mara Quint.\nIt started in March 2021.\n\n## Budget\n\n"
        "The budget of Heron was approved by the steering board in April 2021.\n",
        encoding="utf-8",
    )
    (root / "notes" / "mara.txt").write_text(
        "Mara Quint was born in Tromsø, Norway. She studied physics in Bergen and joined the lab in 2019.\n",
        encoding="utf-8",
    )
    (root / "notes" / "guide.rst").write_text(
        "Calibration Guide\n=================\n\n"
        "Calibrate each turbidity sensor with distilled water before deployment.\n",
        encoding="utf-8",
    )
    (root / "wiki" / "kestrel.html").write_text(
        "<html><head><title>Kestrel Wiki</title><style>p{color:red}</style></head><body>"
        "<nav>Home | About</nav><h1>Kestrel</h1><p>Project Kestrel maps bird migration with radar.</p>"
        "<script>var secret = 'zzscriptzz';</script><p>Its sponsor is the Vossberg Foundation.</p></body></html>",
        encoding="utf-8",
    )
    make_pdf(
        root / "wiki" / "report.pdf",
        [
            ["Annual report of the Lark observatory.", "The observatory opened in 1998."],
            ["Second page: the Lark telescope mirror is 2.4 metres wide."],
        ],
        title="Lark Observatory Report",
    )
    records = [
        {"id": "r1", "title": "Osprey", "text": "Osprey is a sailing drone built by the Quint lab in 2022."},
        {"id": "r2", "title": "Petrel", "text": "Petrel is a weather balloon program funded in 2020."},
    ]
    (root / "records.jsonl").write_text("\n".join(json.dumps(r) for r in records) + "\n", encoding="utf-8")
    return root


@pytest.fixture()
def eval_cache(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A session-wide XDG cache for eval tests (the tiny corpus is indexed once, as users
    get it) that shares the real cache's models folder, so the embedded GGUF (which eval
    uses to count tokens) is not assembled again into a temp dir."""
    from drrag_cli.llm.llm import default_model_path

    real_models = default_model_path().parent  # before XDG_CACHE_HOME moves
    cache = tmp_path_factory.getbasetemp() / "eval-cache"
    models = cache / "drrag" / "models"
    if not models.exists():
        models.parent.mkdir(parents=True, exist_ok=True)
        models.symlink_to(real_models, target_is_directory=True)
    monkeypatch.setenv("XDG_CACHE_HOME", str(cache))
    return cache


@pytest.fixture(autouse=True)
def _isolated_config(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    """No user config or collections from the developer's machine leak into a test."""
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path_factory.mktemp("xdg-config")))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path_factory.mktemp("xdg-data")))


@pytest.fixture()
def corpus(tmp_path: Path) -> Path:
    return write_corpus(tmp_path / "corpus")


@pytest.fixture()
def settings(tmp_path: Path) -> Settings:
    return Settings().replace({"index.path": str(tmp_path / "ix")})


CliResult = tuple[int, str, str]


@pytest.fixture()
def cli(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> Callable[..., CliResult]:
    """Run `drrag ARGS` in-process (models stay loaded across calls) → (exit code, stdout, stderr)."""
    from drrag_cli.cli.main import main

    monkeypatch.chdir(tmp_path)

    def run(*args: str) -> CliResult:
        capsys.readouterr()
        code = main(list(args))
        out, err = capsys.readouterr()
        return code, out, err

    return run


def drrag_cmd(*args: str) -> list[str]:
    """Argv for a real `drrag` subprocess, independent of PATH."""
    return [sys.executable, "-m", "drrag_cli.cli.main", *args]
