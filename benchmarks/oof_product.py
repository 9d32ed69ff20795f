"""Retrieval settings checked out of fold, through the product itself.

Settings chosen with ``drrag eval`` on the training sets flatter the classifier: it was
fitted on those questions, so its scores there are in-sample, and every rule that trusts
a high score looks better than it is (``retrieval.surer`` did, docs/BENCHMARKS.md).
``benchmarks/spare_replay.py`` replays one rule over the mined pools with out-of-fold
scores, but the replay has no named hops and no third hop. This runs the real CFS:

* ``fit`` trains five models of the shipped recipe (``train_classifier.py``'s trees, 3
  negatives per positive, half of them from the walks), each on the training questions of
  four folds, into ``benchmarks/out/oof/fold<f>/``, with the shipped model's thresholds,
  q* fallback and embedding model;
* ``run NAME [key=value ...]`` runs ``drrag eval --no-llm -s cfs -k 3,4,6`` on each
  training set once per fold model (``-c`` a config naming it, plus the settings given)
  and keeps, for every question, the row of the model that never saw it. It prints
  recall and documents fed per k and writes ``benchmarks/out/oof/NAME.json``.

The folds are ``spare_replay.py``'s (whole questions, ``random.Random("cv:<set>")``). The
training sets are HotpotQA train100 and MuSiQue train100 with their corpora, and dev500
questions 250–499 over the whole dev500 corpus, as ``drrag eval --offset 250`` reads it
(the classifier mined those questions over their own paragraphs only).

    .venv/bin/python benchmarks/oof_product.py fit
    .venv/bin/python benchmarks/oof_product.py run shipped
    .venv/bin/python benchmarks/oof_product.py run no-chain retrieval.chain=0
    .venv/bin/python benchmarks/oof_product.py run no-spare --sets=musique_train100,hotpot_train100,\
hotpot_dev250_499 retrieval.spare=0     # another order, beside a run in the default one
"""

from __future__ import annotations

import hashlib
import json
import subprocess
import sys
from functools import lru_cache
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

import train_classifier as tc  # noqa: E402
from spare_replay import fold_models  # noqa: E402
from train_classifier import FOLDS, folds  # noqa: E402

OUT = ROOT / "benchmarks" / "out" / "oof"
DATA = ROOT.parent / "shared" / "data"
KS = (3, 4, 6)
# pool name → the eval's arguments; the pool's question i is the file's question offset + i
SETS = {
    "hotpot_train100": ([str(DATA / "hotpotqa/train100.hotpot.json"), "--corpus",
                         str(DATA / "hotpotqa/train100.corpus.json")], 0, 100),
    "hotpot_dev250_499": ([str(DATA / "hotpotqa/dev500.ircot.jsonl"), "--offset", "250", "--limit", "250"], 250, 250),
    "musique_train100": ([str(DATA / "musique/train100.musique.json"), "--corpus",
                          str(DATA / "musique/train100.corpus.json")], 0, 100),
}


def fit() -> None:
    """Five fold models of the shipped recipe, saved with the shipped model's settings."""
    from drrag_cli.select.classifier import RelevanceClassifier

    shipped = RelevanceClassifier.load()
    keep = ("thresholds", "embedding_model", "version")
    for f, clf, fold in fold_models(tc.load_pools(), {k: shipped.meta[k] for k in keep}):
        clf.fallback, clf.threshold = shipped.fallback, shipped.threshold
        clf.meta["fold"] = {"of": FOLDS, "held_out": f, "sets": {n: sorted(q for q, g in fold[n].items() if g == f)
                                                                for n in tc.TRAIN}}
        clf.save(OUT / f"fold{f}")
        print(f"fold {f} saved to {OUT / f'fold{f}'}", flush=True)


@lru_cache(maxsize=1)
def code_key() -> str:
    """A short hash of the package `drrag` imports (``PYTHONPATH`` included; ``-P`` leaves
    out the working directory, as the console script does). A run's folder is kept per code
    as well as per settings: a rule changed under the same settings (``run shipped`` after a
    commit) is run again, never read from an older run's folder."""
    where = subprocess.run([str(ROOT / ".venv/bin/python"), "-P", "-c", "import drrag_cli; print(drrag_cli.__file__)"],
                           check=True, capture_output=True, text=True).stdout.strip()
    digest = hashlib.sha256()
    for path in sorted(Path(where).parent.rglob("*")):
        if path.is_file() and "__pycache__" not in path.parts:
            digest.update(str(path.relative_to(Path(where).parent)).encode() + path.read_bytes())
    return digest.hexdigest()[:12]


def _eval(name: str, f: int, settings: list[str]) -> list[dict]:
    args, _, _ = SETS[name]
    folder = OUT / "runs" / name / f"{'+'.join(settings) or 'shipped'}" / code_key() / f"fold{f}"
    folder.mkdir(parents=True, exist_ok=True)
    sections: dict[str, dict[str, str]] = {"classifier": {"path": str(OUT / f"fold{f}")}}
    for item in settings:
        key, _, value = item.partition("=")
        section, _, field = key.partition(".")
        sections.setdefault(section, {})[field] = value  # one mapping per section: YAML keeps a repeated key's last
    yaml = [f"{name}:\n" + "".join(f"  {k}: {v}\n" for k, v in fields.items()) for name, fields in sections.items()]
    (folder / "config.yaml").write_text("".join(yaml))
    if not (folder / "out" / "results.json").is_file():
        cmd = [str(ROOT / ".venv/bin/drrag"), "eval", *args, "--no-llm", "-s", "cfs", "-k", ",".join(map(str, KS)),
               "-c", str(folder / "config.yaml"), "--out", str(folder / "out"), "--force"]
        subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
    with (folder / "out" / "per_question.jsonl").open() as fh:
        return [json.loads(line) for line in fh]


def run(label: str, settings: list[str], order: list[str] | None = None) -> dict:
    """Each training set's CFS recall and documents per k, every question scored out of fold
    (in ``order``: two runs at once should not open the same eval index together)."""
    from drrag_cli.evaluate.datasets import load_dataset

    report: dict = {"settings": settings}
    for name in order or list(SETS):
        args, offset, n = SETS[name]
        qids = [ex.qid for ex in load_dataset(args[0]).examples[offset : offset + n]]
        of = folds(n, name)
        fold = {qid: of[i] for i, qid in enumerate(qids)}
        rows = [r for f in range(FOLDS) for r in _eval(name, f, settings) if fold.get(r["qid"]) == f]
        report[name] = {
            f"k{k}": {"recall": round(100 * float(np.mean([r["recall"] for r in rows if r["k"] == k])), 2),
                      "docs": round(float(np.mean([r["docs_fed"] for r in rows if r["k"] == k])), 2),
                      "questions": sum(1 for r in rows if r["k"] == k)}
            for k in KS
        }
        cells = " | ".join(f"k={k} {c['recall']} ({c['docs']})" for k, c in zip(KS, report[name].values(), strict=True))
        print(f"{label} {name}: {cells}", flush=True)
    report["mean_k4"] = round(float(np.mean([report[n]["k4"]["recall"] for n in SETS if n in report])), 2)
    print(f"{label} mean recall at k=4: {report['mean_k4']}", flush=True)
    (OUT / f"{label}.json").write_text(json.dumps(report, indent=1))
    return report


def main() -> None:
    if sys.argv[1:2] == ["fit"]:
        fit()
    elif sys.argv[1:2] == ["run"] and len(sys.argv) >= 3:
        settings = [a for a in sys.argv[3:] if not a.startswith("--sets=")]
        for item in settings:
            key, _, value = item.partition("=")
            if "." not in key.strip(".") or not value:
                sys.exit(f"setting {item!r} is not section.key=value (for example retrieval.chain=0)")
            if key == "classifier.path":
                sys.exit("classifier.path is the fold model's; give another setting")
        order = [a.split("=", 1)[1].split(",") for a in sys.argv[3:] if a.startswith("--sets=")]
        run(sys.argv[2], settings, order[0] if order else None)
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main()
