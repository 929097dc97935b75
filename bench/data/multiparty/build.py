#!/usr/bin/env python3
"""Build turns.jsonl and qa.jsonl from the hand-written sources in source/.

source/<conv_id>.txt   one turn a line:  Speaker > Addressee: text  ^label ...
                       session header:   == <session> | <session_date_time>
                       comments:         lines starting with '%'
source/<conv_id>.qa    one question a line:
                       kind | category | question | answer | label, label, ...
Labels name turns so that evidence is written once, next to the turn, and
resolved to dia_ids here. Run: python3 build.py && python3 validate.py
Another set in this format (../multiparty-dev) builds with this script: python3 build.py DIR CONV...
(its sources in DIR/source, its conversations in order).
"""
import json
import re
import sys
from pathlib import Path

HERE = Path(sys.argv[1]).resolve() if len(sys.argv) > 1 else Path(__file__).resolve().parent
CONVS = sys.argv[2:] or ["mp-house", "mp-team", "mp-family"]
CATEGORY_NAMES = {1: "multi-hop", 2: "temporal", 3: "open-domain", 4: "single-hop"}
TURN_RE = re.compile(r"^([A-Z][A-Za-z]+) > ([A-Za-z, ]+): (.+)$")
LABEL_RE = re.compile(r"\s\^([a-z0-9_]+)")


def fail(msg):
    sys.exit(f"build.py: {msg}")


def build_turns(conv_id):
    rows, labels = [], {}
    session, date, n_in_session = None, None, 0
    src = HERE / "source" / f"{conv_id}.txt"
    for lineno, raw in enumerate(src.read_text(encoding="utf-8").splitlines(), 1):
        line = raw.strip()
        if not line or line.startswith("%"):
            continue
        if line.startswith("=="):
            num, date = [p.strip() for p in line[2:].split("|", 1)]
            session, n_in_session = int(num), 0
            continue
        found = LABEL_RE.findall(line)
        text_part = LABEL_RE.sub("", line).strip()
        m = TURN_RE.match(text_part)
        if not m or session is None:
            fail(f"{src.name}:{lineno}: cannot parse: {raw!r}")
        speaker, addressee, text = m.group(1), m.group(2).strip(), m.group(3).strip()
        n_in_session += 1
        dia_id = f"D{session}:{n_in_session}"
        for lab in found:
            if lab in labels:
                fail(f"{src.name}:{lineno}: label {lab} used twice")
            labels[lab] = dia_id
        rows.append({
            "conv_id": conv_id, "session": session, "session_date_time": date,
            "dia_id": dia_id, "speaker": speaker, "addressee": addressee,
            "text": text, "turn_idx": len(rows),
        })
    return rows, labels


def build_qa(conv_id, labels, start_idx):
    rows = []
    src = HERE / "source" / f"{conv_id}.qa"
    for lineno, raw in enumerate(src.read_text(encoding="utf-8").splitlines(), 1):
        line = raw.strip()
        if not line or line.startswith("%"):
            continue
        parts = [p.strip() for p in line.split(" | ")]
        if len(parts) != 5:
            fail(f"{src.name}:{lineno}: expected 5 fields, got {len(parts)}")
        kind, cat, question, answer, ev = parts
        evidence = []
        for lab in [e.strip() for e in ev.split(",") if e.strip()]:
            if lab not in labels:
                fail(f"{src.name}:{lineno}: unknown label {lab}")
            evidence.append(labels[lab])
        rows.append({
            "conv_id": conv_id, "qa_idx": start_idx + len(rows), "question": question,
            "answer": answer, "category": int(cat), "category_name": CATEGORY_NAMES[int(cat)],
            "evidence": evidence, "kind": kind,
        })
    return rows


def main():
    turns, qa = [], []
    for conv_id in CONVS:
        t, labels = build_turns(conv_id)
        turns += t
        qa += build_qa(conv_id, labels, len(qa))
    with open(HERE / "turns.jsonl", "w", encoding="utf-8") as f:
        for r in turns:
            f.write(json.dumps(r, ensure_ascii=False) + "\n")
    with open(HERE / "qa.jsonl", "w", encoding="utf-8") as f:
        for r in qa:
            f.write(json.dumps(r, ensure_ascii=False) + "\n")
    print(f"wrote {len(turns)} turns, {len(qa)} questions")


if __name__ == "__main__":
    main()
