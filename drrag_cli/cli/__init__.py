"""Typer commands: parse options, load settings, call the library, render."""

import os
import sys

# In the `drrag` process (the console script, or `python -m drrag_cli.cli.main`, whose packages
# import while argv[0] is "-m"), Ctrl-C while the commands import is one line, not a traceback.
if getattr(sys, "argv", None) and (sys.argv[0] == "-m" or os.path.basename(sys.argv[0]) == "drrag"):
    from drrag_cli.cli.process import stop_on_interrupt

    stop_on_interrupt()
