#!/usr/bin/env bash
# Builds the audio fixtures under test/fixtures/audio/: multi-utterance 16 kHz mono 16-bit WAVs spoken by
# flite and festival voices, separated by silences, plus utterances.json with each utterance's text and
# its true speech span in milliseconds (leading/trailing silence of every synthesised utterance is trimmed
# first, so the span is exact by construction).
# Needs: flite, festival (+ festvox-kallpc16k, festvox-us-slt-hts), sox.
# Every sox runs with -R (its dither seeded), so that a rerun writes the same bytes; the committed files
# predate -R and are kept as they are (tests pin features of their exact bytes, e.g. test/fixtures/speaker-pins.json).
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
OUT="$ROOT/test/fixtures/audio"
TMP="$(mktemp -d)"
trap 'rm -rf "$TMP"' EXIT
mkdir -p "$OUT"
RATE=16000

# synth <engine:voice> <text> <out.wav>: one trimmed utterance at 16 kHz mono s16.
synth() {
  local engine="${1%%:*}" voice="${1#*:}" text="$2" out="$3"
  case "$engine" in
    flite) flite -voice "$voice" -t "$text" -o "$TMP/raw.wav" ;;
    festival) printf '%s' "$text" > "$TMP/text.txt"
              text2wave -eval "(voice_$voice)" -o "$TMP/raw.wav" "$TMP/text.txt" ;;
  esac
  sox -R "$TMP/raw.wav" -r "$RATE" -c 1 -b 16 "$out" \
    silence 1 0.01 0.3% reverse silence 1 0.01 0.3% reverse
}

# make <name> <engine:voice> <leading silence s> then "text|silence after s" pairs.
JSON="["
make() {
  local name="$1" voice="$2" lead="$3"; shift 3
  local parts=() t_ms=0 entries="" i=0
  sox -R -n -r "$RATE" -c 1 -b 16 "$TMP/lead.wav" trim 0 "$lead"
  parts+=("$TMP/lead.wav")
  t_ms=$(awk "BEGIN{printf \"%d\", $lead*1000}")
  for pair in "$@"; do
    local text="${pair%%|*}" gap="${pair#*|}"
    synth "$voice" "$text" "$TMP/u$i.wav"
    local dur_ms
    dur_ms=$(awk "BEGIN{printf \"%d\", $(soxi -s "$TMP/u$i.wav")*1000/$RATE}")
    sox -R -n -r "$RATE" -c 1 -b 16 "$TMP/g$i.wav" trim 0 "$gap"
    parts+=("$TMP/u$i.wav" "$TMP/g$i.wav")
    [ -n "$entries" ] && entries+=","
    entries+="{\"text\":\"$text\",\"start_ms\":$t_ms,\"end_ms\":$((t_ms + dur_ms))}"
    t_ms=$(awk "BEGIN{printf \"%d\", $t_ms + $dur_ms + $gap*1000}")
    i=$((i + 1))
  done
  sox -R "${parts[@]}" "$OUT/$name.wav"
  [ "$JSON" != "[" ] && JSON+=","
  JSON+=$'\n'"  {\"file\":\"$name.wav\",\"voice\":\"$voice\",\"utterances\":[$entries]}"
}

make awb flite:awb 0.6 \
  "the weather is nice today|1.0" \
  "please call my sister tomorrow morning|1.1" \
  "i would like a cup of coffee|0.9"
make rms flite:rms 0.5 \
  "the meeting starts at ten o'clock|1.2" \
  "my cat likes to sleep on the couch|1.0"
make slt flite:slt 0.7 \
  "we should buy more bread and milk|1.0" \
  "the train leaves from platform two|1.1"
make kal16 flite:kal16 0.5 \
  "she reads a book every night|1.0" \
  "the children played in the park|1.0"
make festival-kal festival:kal_diphone 0.6 \
  "open the window please|1.0" \
  "i am going to the store|1.0"
make festival-slt festival:cmu_us_slt_arctic_hts 0.5 \
  "tell me about the last meeting|1.0" \
  "the doctor said i need more rest|1.0"
printf '%s\n]\n' "$JSON" > "$OUT/utterances.json"
du -ch "$OUT"/*.wav | tail -1
