"""Ingest stage: find files, extract text per format, split into passages."""
