#!/usr/bin/env bash
# Every number in docs/BENCHMARKS.md comes from this script (run on a quiet machine).
#   bash benchmarks/run_all.sh [step...]     steps: index retrieval ask sample gemma qwen dslr-tune dslr-floor methods methods-qwen links answers kb hostile cold linked profiles facts possessives ceiling classifier pair
#                                            this wave (2026-11-25): links answers kb; later: linked profiles facts; 2026-11-28: ceiling classifier pair
set -euo pipefail
cd "$(dirname "$0")/.."
PY=.venv/bin/python
DRRAG=".venv/bin/drrag"
DATA=../shared/data
OUT=benchmarks/out
mkdir -p "$OUT" "$OUT/tune"
steps=("$@")
[ ${#steps[@]} -eq 0 ] && steps=(index retrieval ask sample gemma qwen dslr-tune dslr-floor methods methods-qwen)
QWEN=$HOME/.cache/drrag/models/qwen2.5-coder-1.5b-instruct-q4_k_m.gguf
HOT="$DATA/hotpotqa/dev500.ircot.jsonl"
MUS="$DATA/musique/dev100.musique.json"
for step in "${steps[@]}"; do
  echo "== $step $(date -u +%H:%M:%S)"
  case $step in
    index) $PY benchmarks/index_bench.py | tee "$OUT/index_bench.json" ;;
    retrieval)
      # dev500 questions 0..249 only: the classifier trained on 250..499
      /usr/bin/time -f "wall %es" $DRRAG eval "$HOT" --limit 250 --no-llm -s bm25,sm,hybrid,qdc,cis,cfs -k 3,4,6 -c benchmarks/bench.yaml --out "$OUT/eval-hotpot-retrieval" --force --json > /dev/null
      /usr/bin/time -f "wall %es" $DRRAG eval "$MUS" --no-llm -s bm25,sm,hybrid,qdc,cis,cfs -k 3,4,6 -c benchmarks/bench.yaml --out "$OUT/eval-musique-retrieval" --force --json > /dev/null
      # CFS with rule "best" (most probable candidate of each q* list) for comparison
      $DRRAG eval "$HOT" --limit 250 --no-llm -s cfs -k 3,4,6 -c benchmarks/cfs_best.yaml --out "$OUT/eval-hotpot-cfs-best" --force --json > /dev/null
      $DRRAG eval "$MUS" --no-llm -s cfs -k 3,4,6 -c benchmarks/cfs_best.yaml --out "$OUT/eval-musique-cfs-best" --force --json > /dev/null ;;
    ask) $PY benchmarks/ask_bench.py -n 30 --cold 5 | tee "$OUT/ask_bench.json" ;;
    sample) $PY benchmarks/sample_questions.py --strategy cfs | tee "$OUT/sample_cfs.log" ;;
    gemma)
      /usr/bin/time -f "wall %es" $DRRAG eval "$HOT" --limit 100 -s cfs -k 4 -c benchmarks/bench.yaml --out "$OUT/eval-hotpot-gemma" --force --json > /dev/null
      /usr/bin/time -f "wall %es" $DRRAG eval "$MUS" --limit 100 -s cfs -k 4 -c benchmarks/bench.yaml --out "$OUT/eval-musique-gemma" --force --json > /dev/null ;;
    qwen)
      [ -f "$QWEN" ] || $PY benchmarks/get_qwen.py
      /usr/bin/time -f "wall %es" $DRRAG eval "$HOT" --limit 100 -s cfs -k 4 --model "$QWEN" -c benchmarks/bench.yaml --out "$OUT/eval-hotpot-qwen" --force --json > /dev/null
      /usr/bin/time -f "wall %es" $DRRAG eval "$MUS" --limit 100 -s cfs -k 4 --model "$QWEN" -c benchmarks/bench.yaml --out "$OUT/eval-musique-qwen" --force --json > /dev/null ;;
    dslr-tune)
      # DSLR threshold = percentile P of sentence scores, chosen on dev500 q400-499 (never reported)
      for P in 30 50 70 90; do
        $DRRAG eval "$HOT" --offset 400 --limit 100 -s cfs+dslr -k 4 -c benchmarks/bench.yaml --calibrate-dslr $P --out "$OUT/tune/p$P" --force --json > "$OUT/tune/p$P.json"
      done
      $DRRAG eval "$HOT" --offset 400 --limit 100 -s cfs -k 4 -c benchmarks/bench.yaml --out "$OUT/tune/base" --force --json > "$OUT/tune/base.json" ;;
    methods)
      M=cfs,cfs+dslr,dmqr,dmqr+cfs,dmqr-adaptive+cfs+dslr,note
      /usr/bin/time -f "wall %es" $DRRAG eval "$HOT" --limit 100 -s $M -k 4 -c benchmarks/methods.yaml --out "$OUT/eval-hotpot-methods" --force --json > /dev/null
      /usr/bin/time -f "wall %es" $DRRAG eval "$MUS" --limit 100 -s $M -k 4 -c benchmarks/methods.yaml --out "$OUT/eval-musique-methods" --force --json > /dev/null ;;
    methods-qwen)
      # the same methods through an instruct model's chat template (50 questions, ~35 s each for all five)
      [ -f "$QWEN" ] || $PY benchmarks/get_qwen.py
      /usr/bin/time -f "wall %es" $DRRAG eval "$HOT" --limit 50 -s cfs,cfs+dslr,dmqr+cfs,dmqr-adaptive+cfs+dslr,note -k 4 --model "$QWEN" -c benchmarks/methods.yaml --out "$OUT/eval-hotpot-methods-qwen" --force --json > /dev/null ;;
    dslr-floor)
      # refine.min_sentences 2 (each passage keeps its best two sentences): tuning half, then reported sets
      $DRRAG eval "$HOT" --offset 400 --limit 100 -s cfs+dslr -k 4 -c benchmarks/dslr2.yaml --out "$OUT/tune/floor2" --force --json > /dev/null
      $DRRAG eval "$HOT" --limit 100 -s cfs+dslr -k 4 -c benchmarks/dslr2.yaml --out "$OUT/eval-hotpot-dslr2" --force --json > /dev/null
      $DRRAG eval "$MUS" --limit 100 -s cfs+dslr -k 4 -c benchmarks/dslr2.yaml --out "$OUT/eval-musique-dslr2" --force --json > /dev/null
      $DRRAG eval "$HOT" --limit 50 -s cfs+dslr -k 4 --model "$QWEN" -c benchmarks/dslr2.yaml --out "$OUT/eval-hotpot-dslr2-qwen" --force --json > /dev/null ;;
    links)
      # retrieval with the link graph (docs/BENCHMARKS.md, "Retrieval with the link graph")
      $DRRAG eval "$HOT" --limit 250 --no-llm -s sm,qdc,cfs -k 3,4,6 -c benchmarks/bench.yaml --out "$OUT/eval-hotpot-retrieval-links" --force --json > /dev/null
      $DRRAG eval "$MUS" --no-llm -s sm,qdc,cfs -k 3,4,6 -c benchmarks/bench.yaml --out "$OUT/eval-musique-retrieval-links" --force --json > /dev/null
      $DRRAG eval "$HOT" --limit 250 --no-llm -s cfs -k 3,4,6 -c benchmarks/cfs_best.yaml --out "$OUT/eval-hotpot-retrieval-links-best" --force --json > /dev/null
      $DRRAG eval "$MUS" --no-llm -s cfs -k 3,4,6 -c benchmarks/cfs_best.yaml --out "$OUT/eval-musique-retrieval-links-best" --force --json > /dev/null ;;
    answers)
      # decompose (the default) vs one-call, and SM, with the embedded Gemma
      $DRRAG eval "$HOT" --limit 100 -s sm,cfs -k 4 -c benchmarks/one-call.yaml --out "$OUT/ans_hotpot_gemma" --force --json > /dev/null
      $DRRAG eval "$HOT" --limit 100 -s cfs -k 4 --out "$OUT/ans_hotpot_gemma_dec" --force --json > /dev/null
      $DRRAG eval "$MUS" --limit 100 -s sm,cfs -k 4 --out "$OUT/ans_musique_gemma" --force --json > /dev/null
      $DRRAG eval "$MUS" --limit 100 -s cfs -k 4 -c benchmarks/one-call.yaml --out "$OUT/ans_musique_gemma_onecall" --force --json > /dev/null
      $PY benchmarks/answer_ablation.py "$MUS" | tee "$OUT/answer_ablation_musique.txt"
      $PY benchmarks/sample_questions.py | tee "$OUT/sample_cfs.log"
      [ -f "$QWEN" ] || $DRRAG models install qwen2.5-coder-1.5b
      $PY benchmarks/sample_questions.py --model "$QWEN" | tee "$OUT/sample_cfs_qwen.log" ;;
    linked)
      # ten two-note questions over a small vault of linked notes, both models
      $PY benchmarks/sample_questions.py --corpus benchmarks/linked_notes --out "$OUT/linked" | tee "$OUT/linked_gemma.log"
      [ -f "$QWEN" ] || $DRRAG models install qwen2.5-coder-1.5b
      $PY benchmarks/sample_questions.py --corpus benchmarks/linked_notes --out "$OUT/linked" --model "$QWEN" | tee "$OUT/linked_qwen.log" ;;
    profiles)
      # eight questions that describe a team member by their profile's role, both models
      $PY benchmarks/sample_questions.py --questions QUESTIONS-profiles.md --out "$OUT/profiles" | tee "$OUT/profiles_gemma.log"
      [ -f "$QWEN" ] || $DRRAG models install qwen2.5-coder-1.5b
      $PY benchmarks/sample_questions.py --questions QUESTIONS-profiles.md --out "$OUT/profiles" --model "$QWEN" | tee "$OUT/profiles_qwen.log" ;;
    facts)
      # twelve one-fact questions that name what they ask about (a table row, a "studied at"), both models
      $PY benchmarks/sample_questions.py --questions QUESTIONS-facts.md --out "$OUT/facts" | tee "$OUT/facts_gemma.log"
      [ -f "$QWEN" ] || $DRRAG models install qwen2.5-coder-1.5b
      $PY benchmarks/sample_questions.py --questions QUESTIONS-facts.md --out "$OUT/facts" --model "$QWEN" | tee "$OUT/facts_qwen.log" ;;
    possessives)
      # six two-document questions that describe the bridge as a possessive ("Heron's lead engineer"), both models
      $PY benchmarks/sample_questions.py --questions QUESTIONS-possessives.md --out "$OUT/possessives" | tee "$OUT/possessives_gemma.log"
      [ -f "$QWEN" ] || $DRRAG models install qwen2.5-coder-1.5b
      $PY benchmarks/sample_questions.py --questions QUESTIONS-possessives.md --out "$OUT/possessives" --model "$QWEN" | tee "$OUT/possessives_qwen.log" ;;
    kb)
      # the user-like benchmark: notes, drrag index, one drrag ask --json per question
      $PY benchmarks/kb_bench.py --dataset hotpotqa -n 40 | tee "$OUT/kb_gemma.log"
      $PY benchmarks/kb_bench.py --dataset hotpotqa -n 40 --answer-mode one-call | tee "$OUT/kb_gemma_onecall.log"
      [ -f "$QWEN" ] || $DRRAG models install qwen2.5-coder-1.5b
      $PY benchmarks/kb_bench.py --dataset hotpotqa -n 40 --model "$QWEN" | tee "$OUT/kb_qwen.log"
      $PY benchmarks/links_cost.py "$OUT/kb/hotpotqa/ix"
      $PY benchmarks/ask_bench.py --index "$OUT/kb/hotpotqa/ix" -n 30 --cold 3 | tee "$OUT/ask_bench_kb.json" ;;
    hostile)
      # issue 13: hostile queries, bad files, crashes and a full disk, prompt injection (counts)
      $PY benchmarks/hostile.py --out docs/HOSTILE.md | tee "$OUT/hostile_all.txt" ;;
    cold)
      # issue 14: cold ask / cold hybrid search / peak RSS / warm p50, ONNX query path against torch
      $PY benchmarks/cold_start.py --runs 7 | tee "$OUT/cold_start.txt" ;;
    ceiling)
      # issue 11: CFS with a perfect classifier (its ceiling at k) and without, where the gold paragraphs are lost
      for k in 3 4 6; do
        $PY benchmarks/cfs_misses.py "$HOT" --limit 250 -k $k --oracle > "$OUT/ceiling_hotpot_k$k.json"
        $PY benchmarks/cfs_misses.py "$MUS" -k $k --oracle > "$OUT/ceiling_musique_k$k.json"
      done
      $PY benchmarks/cfs_misses.py "$HOT" --limit 250 > "$OUT/misses_hotpot.json"
      $PY benchmarks/cfs_misses.py "$MUS" > "$OUT/misses_musique.json"
      $DRRAG eval "$MUS" --no-llm -s qdc,cfs -k 4 --out "$OUT/eval-musique-by-type" --force | tee "$OUT/musique_by_type.txt" ;;
    classifier)
      # issue 11: the classifier's recipes out of fold (needs benchmarks/out/pools.pkl: train_classifier.py mine)
      $PY benchmarks/classifier_variants.py --bridges | tee "$OUT/classifier_bridges.jsonl"
      $PY benchmarks/classifier_variants.py --test | tee "$OUT/classifier_variants.jsonl" ;;
    pair)
      # issue 11: a cross-encoder fine-tuned from the shipped MiniLM against the trees, out of fold (~25 min)
      $PY benchmarks/pair_model.py --json "$OUT/pair_model.json" ;;
    *) echo "unknown step $step" >&2; exit 1 ;;
  esac
done
