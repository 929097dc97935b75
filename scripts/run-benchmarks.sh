#!/usr/bin/env bash
# Run every benchmark once, in sequence, and keep the output under bench/results/<UTC time>/.
# The machine should be otherwise idle: several benchmarks measure latency under CPU load.
set -euo pipefail
cd "$(dirname "$0")/.."
npm run build --silent
out="bench/results/$(date -u +%Y%m%dT%H%M%SZ)"
mkdir -p "$out"
{ uname -a; nproc; free -g | head -2; node --version; git rev-parse HEAD; } > "$out/machine.txt"
run() {
  local name="$1"; shift
  echo "== $name: node $*" >&2
  node "$@" 2>&1 | tee "$out/$name.txt"
}
run asr-wer dist/bench/asr-wer.js
run vad-latency dist/bench/vad-latency.js
run asr-concurrency dist/bench/asr-concurrency.js
run vad-real dist/bench/vad-real.js
run asr-real dist/bench/asr-real.js
run speaker-eval dist/bench/speaker-eval.js
run naming dist/bench/naming.js
run memory-freshness dist/bench/memory-freshness.js
run memory-ingest dist/bench/memory-ingest.js
run ingest-participants dist/bench/ingest-participants.js
run ingest-flood dist/bench/ingest-flood.js
run memory-changes dist/bench/memory-changes.js
run memory-coverage dist/bench/memory-coverage.js
run consolidation-scale dist/bench/consolidation-scale.js
run store-search dist/bench/store-search.js
run retrieval-latency dist/bench/retrieval-latency.js
run retrieval-locomo dist/bench/retrieval-locomo.js
run networked-latency dist/bench/networked-latency.js
run speaker-merge dist/bench/speaker-merge.js
run asr-names dist/bench/asr-names.js
run retrieval-calls dist/bench/retrieval-calls.js
run neighbour-reads dist/bench/neighbour-reads.js
run session-merge-scale dist/bench/session-merge-scale.js
run merge-reindex dist/bench/merge-reindex.js
run keyed-lock-overhead dist/bench/keyed-lock-overhead.js
run participant-scale dist/bench/participant-scale.js
run affect-encoders dist/bench/affect-encoders.js
run vad-level dist/bench/vad-level.js
run speaker-meeting dist/bench/speaker-meeting.js
run asr-moonshine dist/bench/asr-moonshine.js
run asr-phone dist/bench/asr-phone.js
run asr-names-session dist/bench/asr-names-session.js
run memory-asof dist/bench/memory-asof.js
run memory-we-plans dist/bench/memory-we-plans.js
run fact-wording dist/bench/fact-wording.js
run asr-narrowband dist/bench/asr-narrowband.js
run after-consolidation-overhead dist/bench/after-consolidation-overhead.js
echo "results in $out" >&2
