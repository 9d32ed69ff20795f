"""Relevance classifier C(q, d1, d2) for DR-RAG's CFS and CIS (SPEC §3).

``RelevanceClassifier.load()`` gives the shipped model (numpy only);
``train.train_classifier`` retrains it on a user's labelled multi-hop data.
"""

from __future__ import annotations

from drrag_cli.select.classifier import DocView, RelevanceClassifier

__all__ = ["DocView", "RelevanceClassifier"]
