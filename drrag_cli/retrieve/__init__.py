"""Retrieve stage: hybrid fusion and the strategies (bm25, sm, hybrid, qdc, cfs, cis)."""
