"""The model runtime: the local GGUF model loaded once per process and asked to complete.

Its own package because three stages use it and none owns it: the answer stage
(:mod:`drrag_cli.answer`), DMQR's rewrites (:mod:`drrag_cli.retrieve.rewrite`) and
Adaptive-Note's loop (:mod:`drrag_cli.retrieve.note`). ``llm.LocalLLM`` wraps
llama-cpp-python (imported lazily, loaded in the background while retrieval runs);
``embedded`` finds the shipped model and its widened copy; ``kv_cache`` keeps the prompt's
shared prefix evaluated; ``sampling`` constrains what a completion may say; ``perf`` picks
threads and times each call. Nothing here knows what a question or an answer is.
"""
