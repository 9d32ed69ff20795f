"""Choosing the office/e-book parsers (issue 16): install size, import time, documents/s.

For each candidate: the size on disk of the packages it installs (its own and the
dependencies it pulls), the cold import time (a fresh interpreter, best of 3), and how
many of the sample-corpus files of each format it reads per second (best of 3 rounds).
drrag's loaders (python-docx, python-pptx, odfpy, ebooklib, stdlib email/mailbox) run
in this venv; markitdown 0.1.9 in a separate venv given by --markitdown-python
(`python3 -m venv V && V/bin/pip install 'markitdown[docx,pptx,epub]==0.1.9'`), so it
never enters drrag's dependencies.

    python benchmarks/format_bench.py [--markitdown-python /tmp/f16mdv/bin/python]
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
SAMPLE = REPO / "sample_corpus"
FILES = {
    ".docx": SAMPLE / "projects/curlew/field-pilot-plan.docx",
    ".pptx": SAMPLE / "meetings/2023-12-plover-year-review.pptx",
    ".odt": SAMPLE / "wiki/kitchen-rota.odt",
    ".epub": SAMPLE / "wiki/halyard-handbook.epub",
    ".eml": SAMPLE / "notes/mail/2023-10-03-nas-quote.eml",
    ".mbox": SAMPLE / "notes/mail/2024-offsite-planning.mbox",
}
# candidate -> (import statement, top-level package folders it installs, formats it reads)
DRRAG = {
    "python-docx 1.2.0": ("import docx", ["docx", "lxml"], [".docx"]),
    "python-pptx 1.0.2": ("import pptx", ["pptx", "lxml", "PIL", "pillow.libs", "xlsxwriter"], [".pptx"]),
    "odfpy 1.4.1": ("import odf.opendocument, odf.teletype", ["odf", "defusedxml"], [".odt"]),
    "ebooklib 0.20": ("from ebooklib import epub", ["ebooklib", "lxml", "six.py"], [".epub"]),
    "stdlib email+mailbox": ("import email, mailbox", [], [".eml", ".mbox"]),
}

TIME_IMPORT = "import time; t = time.perf_counter(); {stmt}; print(time.perf_counter() - t)"
RATE = """
import json, sys, time
from pathlib import Path
files = [Path(p) for p in json.loads(sys.argv[1])]
{setup}
best = 0.0
for _ in range(3):
    n, t = 0, time.perf_counter()
    while time.perf_counter() - t < 0.5:
        for f in files:
            {read}
            n += 1
    best = max(best, n / (time.perf_counter() - t))
print(best)
"""
DRRAG_READ = ("from drrag_cli.ingest.loaders import load_bytes",
              "assert load_bytes(f, f.read_bytes()).documents")
MD_READ = ("from markitdown import MarkItDown\nmd = MarkItDown(enable_plugins=False)",
           "assert md.convert(str(f)).text_content.strip()")


def size_mb(python: str, folders: list[str]) -> float:
    site = subprocess.run([python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                          capture_output=True, text=True, check=True).stdout.strip()
    paths = [str(Path(site) / f) for f in folders if (Path(site) / f).exists()]
    if not paths:
        return 0.0
    out = subprocess.run(["du", "-sck", *paths], capture_output=True, text=True, check=True).stdout
    return int(out.strip().splitlines()[-1].split()[0]) / 1024


def run_float(python: str, code: str, *args: str) -> float:
    out = subprocess.run([python, "-c", code, *args], capture_output=True, text=True, check=True)
    return float(out.stdout.strip().splitlines()[-1])


def measure(name: str, python: str, stmt: str, folders: list[str], formats: list[str], reader) -> dict:  # noqa: ANN001
    imp = min(run_float(python, TIME_IMPORT.format(stmt=stmt)) for _ in range(3))
    row = {"candidate": name, "install_mb": round(size_mb(python, folders), 1), "import_ms": round(imp * 1000)}
    setup, read = reader
    for fmt in formats:
        code = RATE.format(setup=setup, read=read)
        row[f"{fmt} docs/s"] = round(run_float(python, code, json.dumps([str(FILES[fmt])])))
    return row


def markitdown_folders(python: str) -> list[str]:
    """Everything the markitdown venv holds beyond a bare venv (pip, setuptools)."""
    site = subprocess.run([python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                          capture_output=True, text=True, check=True).stdout.strip()
    bare = {"pip", "setuptools", "_distutils_hack", "pkg_resources", "distutils-precedence.pth", "__pycache__"}
    return [p.name for p in Path(site).iterdir() if p.name not in bare and not p.name.endswith(".dist-info")]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--markitdown-python", help="python of a venv with markitdown[docx,pptx,epub]")
    args = ap.parse_args()
    rows = [measure(n, sys.executable, s, f, fm, DRRAG_READ) for n, (s, f, fm) in DRRAG.items()]
    if args.markitdown_python:
        mdpy = args.markitdown_python
        rows.append(measure("markitdown 0.1.9 [docx,pptx,epub]", mdpy, "from markitdown import MarkItDown",
                            markitdown_folders(mdpy), [".docx", ".pptx", ".epub"], MD_READ))
    office = sorted({f for _, folders, _ in DRRAG.values() for f in folders})
    rows.append({"candidate": "drrag-cli[office] (union, shared lxml counted once)",
                 "install_mb": round(size_mb(sys.executable, office), 1)})
    for row in rows:
        print(json.dumps(row))


if __name__ == "__main__":
    main()
