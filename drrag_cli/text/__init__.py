"""Plain text functions every stage shares: words, the prompt's fence, Markdown tables and
sections, version numbers, the answers a question itself allows.

The bottom of the package: it imports nothing of drrag_cli, so ingest, index, retrieve,
select, the answer stage and evaluate may all use it without climbing a layer. A piece
lives here when two stages read text the same way (retrieval feeds the section the answer
stage reads; evaluation and the answer stage normalise an answer alike), never a copy in each.
"""
