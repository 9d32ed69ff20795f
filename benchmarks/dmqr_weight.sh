#!/usr/bin/env bash
# DMQR fusion weight of the question's own list (rewrite.original_weight), retrieval only,
# Gemma-3-270M rewrites: tuned on HotpotQA dev500 q400-499, reported on q0-99.
#   bash benchmarks/dmqr_weight.sh      (results in benchmarks/out/tune/dmqr-w*-*/)
set -euo pipefail
cd "$(dirname "$0")/.."
HOT=../shared/data/hotpotqa/dev500.ircot.jsonl
D=.venv/bin/drrag
OUT=benchmarks/out/tune
mkdir -p "$OUT"
for w in 2 4; do printf "embedding:\n  threads: 1\nrewrite:\n  original_weight: %s\n" "$w" > "$OUT/w$w.yaml"; done
for off in 400 0; do
  # weight 1 first: it fills the rewrite cache that the other weights read
  $D eval $HOT --offset $off --limit 100 --no-llm -s hybrid,dmqr,dmqr+cfs -k 4 -c benchmarks/bench.yaml --out "$OUT/dmqr-w1-$off" --force --json > /dev/null
  for w in 2 4; do
    $D eval $HOT --offset $off --limit 100 --no-llm -s dmqr,dmqr+cfs -k 4 -c "$OUT/w$w.yaml" --out "$OUT/dmqr-w$w-$off" --force --json > /dev/null
  done
done
