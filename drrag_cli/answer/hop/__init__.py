"""The second hop's question, rewritten: ask about the bridge entity by name.

"Where was the lead engineer of Project Heron born?" with Tobias Lindqvist's note in the
context becomes "Where was Tobias Lindqvist born?" (``answer.mode: decompose``). It lives in
the answer stage, not in retrieval, because that is where its data flows: it reads the
documents retrieval already chose (``decompose.bridged``), and its output is the question
the answer is asked with and the passages it is read from; retrieval never sees it.
``description`` and ``describes`` read what a question says of its unnamed subject,
``kinds`` what kind of thing is asked for.
"""
