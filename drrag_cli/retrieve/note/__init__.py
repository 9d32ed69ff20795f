"""Adaptive-Note (paper 002, SPEC §6), beside the other retrieval strategies.

It is a strategy (``strategy.Note``, registered as ``note`` in :mod:`drrag_cli.retrieve.registry`)
whose retrieval is a loop of model calls: ``loop.run_note`` gathers knowledge into a note
and answers from the best note; ``prompts`` holds the loop's prompts and parsers. Its result
carries the answer, so the pipeline asks the model nothing more.
"""
