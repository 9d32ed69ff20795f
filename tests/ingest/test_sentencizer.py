"""spaCy's sentencizer loads without torch or spaCy's command line, and both still import afterwards."""

import subprocess
import sys
import threading

import pytest

from drrag_cli.ingest.sentencizer import _NoTorchHere

CHECK = """
import sys
from drrag_cli.ingest.sentencizer import nlp
sents = [s.text for s in nlp()("Hello there. This is Dr. Smith! Is it? Yes.").sents]
assert sents == ["Hello there.", "This is Dr. Smith!", "Is it?", "Yes."], sents
assert "torch" not in sys.modules
from drrag_cli.ingest.sentencizer import _FINDER
assert _FINDER not in sys.meta_path  # only there while spaCy was imported
assert "spacy.cli" not in sys.modules and "requests" not in sys.modules  # its command line was not imported
from spacy.cli.info import info
assert info.__module__ == "spacy.cli.info" and "requests" in sys.modules  # the real one, when asked for
import torch
import thinc.compat
print(thinc.compat.has_torch, torch.tensor([1]).item())
"""


def test_the_sentencizer_loads_without_torch_and_torch_imports_after() -> None:
    run = subprocess.run([sys.executable, "-c", CHECK], capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    assert run.stdout.split() == ["False", "1"]  # thinc went on without torch; torch itself works


def test_only_the_switched_on_thread_is_refused_torch() -> None:
    finder = _NoTorchHere()
    finder.local.on = True
    with pytest.raises(ModuleNotFoundError):
        finder.find_spec("torch.utils")
    assert finder.find_spec("torchvision") is None and finder.find_spec("numpy") is None
    seen = []
    other = threading.Thread(target=lambda: seen.append(finder.find_spec("torch")))
    other.start()
    other.join()
    assert seen == [None]
