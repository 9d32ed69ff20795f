#!/usr/bin/env bash
# Every number in docs/BENCHMARKS.md comes from this script; its last step renders that file.
#
#   bash benchmarks/run_all.sh [STEP...]      default: every step below, in this order
#
# Steps and their wall time. Measured: recall took 1,658 s for MuSiQue dev100 and 1,618 s for 2Wiki
# dev182 (their corpora embedded first) on 2 cores shared with five other jobs (load average ~10);
# the rest are estimates for 2 cores with the machine to itself.
#   machine       CPU, flags, cores, RAM, versions -> out/machine.json                      (~1 s, measured)
#   recall        drrag eval --no-llm, SM / QDC / CFS at k = 3,4,6, six sets -> out/recall/  (~3-4 h shared,
#                 ~1 h alone; each corpus is embedded once into ~/.cache/drrag/eval, then reused)
#   answers       drrag eval, CFS k = 4, the embedded Gemma, six sets -> out/answers-gemma/ (~1 h alone)
#   answers-qwen  the same with Qwen2.5-Coder-1.5B, skipped unless its GGUF is installed    (~4 h)
#                 (drrag models install qwen2.5-coder-1.5b) -> out/answers-qwen/
#   answers-qwen05  the same with Qwen2.5-Coder-0.5B (drrag models install qwen2.5-coder-0.5b)
#                 -> out/answers-qwen05/                                        (~1.4 h, measured shared)
#   kb            the knowledge-base benchmark: each held-out family's first questions as a folder of
#                 notes, `drrag index`, one `drrag ask --json` process per question (benchmarks/kb_bench.py),
#                 the embedded Gemma -> out/kb/                                            (~1 h alone)
#   kb-qwen       the same with Qwen2.5-Coder-1.5B, skipped unless its GGUF is installed   (~3 h)
#   kb-qwen05     the same with Qwen2.5-Coder-0.5B                             (~15 min, measured shared)
#   speed         index rate, warm / cold ask, peak RSS -> out/speed/                         (~15 min)
#   render        docs/BENCHMARKS.md from out/ (a missing output renders as "not run")        (~1 s, measured)
#
# Environment: PY and DRRAG (default .venv/bin/...), DATA (the QA sets, default ../shared/data),
# OUT (default benchmarks/out), SETS (only these sets, e.g. SETS="musique-dev100 2wiki-dev182"),
# KB (the knowledge bases as FAMILY:QUESTIONS, default "hotpotqa:60 2wiki:40 musique:40").
# Held-out sets (never tuned on): HotpotQA dev500 q0-249, MuSiQue dev100, 2Wiki dev182; tuning
# halves: HotpotQA dev500 q250-499, MuSiQue train100, 2Wiki train500.
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PY:-.venv/bin/python}
DRRAG=${DRRAG:-.venv/bin/drrag}
DATA=${DATA:-../shared/data}
OUT=${OUT:-benchmarks/out}
QWEN=$HOME/.cache/drrag/models/qwen2.5-coder-1.5b-instruct-q4_k_m.gguf
QWEN05=$HOME/.cache/drrag/models/qwen2.5-coder-0.5b-instruct-awq-q4_k_m.gguf
HOT="$DATA/hotpotqa/dev500.ircot.jsonl"
mkdir -p "$OUT/times"
steps=("$@")
[ ${#steps[@]} -eq 0 ] && steps=(machine recall answers answers-qwen answers-qwen05 kb kb-qwen kb-qwen05 speed render)

# the sets as KEY ARGS...: KEY names the output folder the renderer reads
sets() {
  echo "hotpot-q0-249 $HOT --limit 250"
  echo "musique-dev100 $DATA/musique/dev100.musique.json"
  echo "2wiki-dev182 $DATA/2wiki/dev182.2wiki.json"
  echo "hotpot-q250-499 $HOT --offset 250 --limit 250"
  echo "musique-train100 $DATA/musique/train100.musique.json --corpus $DATA/musique/train100.corpus.json"
  echo "2wiki-train500 $DATA/2wiki/train500.2wiki.json"
}

# one eval per set: eval_sets FOLDER EVAL-OPTIONS...; a set whose run fails is reported and left "not run"
eval_sets() {
  local folder=$1; shift
  local key args
  while read -r key args; do
    [ -z "${SETS:-}" ] || [[ " $SETS " == *" $key "* ]] || continue
    # a fresh run each time: an --out folder resumes by settings, not by code (RESUME=1 resumes)
    [ "${RESUME:-0}" = 1 ] || rm -rf "${OUT:?}/$folder/$key"
    mkdir -p "$OUT/$folder"
    for _ in $(seq 60); do  # another process building the same eval index: wait for it, up to an hour
      # shellcheck disable=SC2086 # ARGS is a list of words
      if $DRRAG eval $args "$@" -c benchmarks/bench.yaml --out "$OUT/$folder/$key" --json > /dev/null \
        2> "$OUT/$folder/$key.err"; then break; fi
      grep -q "another .drrag index. is updating" "$OUT/$folder/$key.err" || { echo "   $folder/$key failed:" \
        "$(tail -n 1 "$OUT/$folder/$key.err")" >&2; break; }
      sleep 60
    done
  done < <(sets)
}

# the knowledge bases: kb_sets [--model GGUF]; each family's first N questions, their paragraphs as N's notes
kb_sets() {
  local family
  mkdir -p "$OUT/kb"
  for family in ${KB:-hotpotqa:60 2wiki:40 musique:40}; do
    $PY benchmarks/kb_bench.py --dataset "${family%%:*}" -n "${family##*:}" --corpus-n "${family##*:}" "$@" \
      --out "$OUT/kb" > "$OUT/kb-${family%%:*}.log" 2>&1 || echo "   kb ${family%%:*} failed: $(tail -n 1 \
      "$OUT/kb-${family%%:*}.log")" >&2
  done
}

# a step with a catalogue model: with_model GGUF WHAT-STAYS COMMAND...; runs COMMAND... --model GGUF, or
# says that WHAT-STAYS "not run" when the model is not installed
with_model() {
  local gguf=$1 stays=$2
  shift 2
  if [ -f "$gguf" ]; then "$@" --model "$gguf"
  else echo "   $gguf not installed: $stays \"not run\"" >&2; fi
}

for step in "${steps[@]}"; do
  echo "== $step $(date -u +%H:%M:%S)" >&2
  start=$SECONDS
  case $step in
    machine) $PY benchmarks/render_benchmarks.py machine > "$OUT/machine.json" ;;
    recall) eval_sets recall --no-llm -s sm,qdc,cfs -k 3,4,6 ;;
    answers) eval_sets answers-gemma -s cfs -k 4 ;;
    answers-qwen) with_model "$QWEN" "the Qwen column stays" eval_sets answers-qwen -s cfs -k 4 ;;
    answers-qwen05) with_model "$QWEN05" "the Qwen-0.5B rows stay" eval_sets answers-qwen05 -s cfs -k 4 ;;
    kb) kb_sets ;;
    kb-qwen) with_model "$QWEN" "the knowledge bases' Qwen column stays" kb_sets ;;
    kb-qwen05) with_model "$QWEN05" "the knowledge bases' Qwen-0.5B columns stay" kb_sets ;;
    speed)
      mkdir -p "$OUT/speed"
      $PY benchmarks/index_bench.py --data "$HOT" --out "$OUT/speed/index" --rounds 1 --index-runtimes auto \
        --no-txtai > /dev/null
      $PY benchmarks/ask_bench.py --data "$HOT" --index "$OUT/speed/index/ix-auto" -n 30 --cold 5 \
        > "$OUT/speed/ask.json"
      $PY benchmarks/cold_start.py --runs 5 --runtimes auto --out "$OUT/speed/cold" > /dev/null ;;
    render) $PY benchmarks/render_benchmarks.py --out "$OUT" ;;
    *) echo "unknown step $step (steps: machine recall answers answers-qwen answers-qwen05 kb kb-qwen kb-qwen05 speed render)" >&2; exit 1 ;;
  esac
  # the step's wall seconds, the code it measured and the sets it ran when SETS chose some, for the
  # steps table of docs/BENCHMARKS.md
  [ "$step" = render ] || echo "$((SECONDS - start)) $(git rev-parse --short HEAD 2>/dev/null || echo "no-git") ${SETS:-}" > "$OUT/times/$step.txt"
done
