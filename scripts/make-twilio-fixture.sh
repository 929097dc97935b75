#!/usr/bin/env bash
# Builds test/fixtures/audio/twilio-call.ulaw: a caller's speech as Twilio Media Streams carries it,
# raw G.711 mu-law, 8000 Hz, mono, no header (flite speaks, sox band-limits to 8 kHz and encodes),
# with twilio-call.json holding each utterance's text. The replay test slices it into 20 ms (160-byte)
# base64 `media` payloads.
# Needs: flite, sox.
# Every sox runs with -R (its dither seeded), so that a rerun writes the same bytes; the committed files
# predate -R and are kept as they are (tests pin features of their exact bytes, e.g. test/fixtures/speaker-pins.json).
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
OUT="$ROOT/test/fixtures/audio"
TMP="$(mktemp -d)"
trap 'rm -rf "$TMP"' EXIT
mkdir -p "$OUT"
VOICE=slt
TEXTS=("hello there" "please call my sister tomorrow morning" "i would like a cup of coffee")
parts=()
sox -R -n -r 8000 -c 1 -b 16 "$TMP/lead.wav" trim 0 0.6
parts+=("$TMP/lead.wav")
i=0
for text in "${TEXTS[@]}"; do
  flite -voice "$VOICE" -t "$text" -o "$TMP/raw$i.wav"
  sox -R "$TMP/raw$i.wav" -r 8000 -c 1 -b 16 "$TMP/u$i.wav" silence 1 0.01 0.3% reverse silence 1 0.01 0.3% reverse
  sox -R -n -r 8000 -c 1 -b 16 "$TMP/g$i.wav" trim 0 1.2
  parts+=("$TMP/u$i.wav" "$TMP/g$i.wav")
  i=$((i + 1))
done
sox -R "${parts[@]}" "$TMP/call.wav"
sox -R "$TMP/call.wav" -t raw -e mu-law -b 8 -r 8000 -c 1 "$OUT/twilio-call.ulaw"
utterances=$(printf '"%s",' "${TEXTS[@]}")
printf '{"encoding":"audio/x-mulaw","sampleRate":8000,"channels":1,"voice":"flite:%s","utterances":[%s]}\n' \
  "$VOICE" "${utterances%,}" > "$OUT/twilio-call.json"
