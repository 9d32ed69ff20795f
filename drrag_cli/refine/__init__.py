"""Refinement of the selected context before the LLM reads it (SPEC §4: DSLR)."""
