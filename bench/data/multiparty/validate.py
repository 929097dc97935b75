#!/usr/bin/env python3
"""Check turns.jsonl and qa.jsonl of the multi-party set (or of the set in the directory given); print counts. Exit 1 on any error."""
import collections
import datetime
import json
import re
import sys
from pathlib import Path

HERE = Path(sys.argv[1]).resolve() if len(sys.argv) > 1 else Path(__file__).resolve().parent
TURN_KEYS = ["conv_id", "session", "session_date_time", "dia_id", "speaker", "addressee", "text", "turn_idx"]
QA_KEYS = ["conv_id", "qa_idx", "question", "answer", "category", "category_name", "evidence", "kind"]
KINDS = {"who-said", "who-to-whom", "change-of-mind", "commitment", "temporal", "multi-hop", "fact"}
DATE_RE = re.compile(r"^(\d{1,2}):(\d{2}) (am|pm) on (\d{1,2}) ([A-Z][a-z]+), (\d{4})$")
DIA_RE = re.compile(r"^D(\d+):(\d+)$")
errors = []


def err(msg):
    errors.append(msg)


def load(name):
    rows = []
    for n, line in enumerate((HERE / name).read_text(encoding="utf-8").splitlines(), 1):
        try:
            rows.append(json.loads(line))
        except json.JSONDecodeError as e:
            err(f"{name}:{n}: bad JSON: {e}")
    return rows


turns, qa = load("turns.jsonl"), load("qa.jsonl")

by_conv = collections.OrderedDict()
for r in turns:
    if list(r.keys()) != TURN_KEYS:
        err(f"turn {r.get('conv_id')} {r.get('dia_id')}: keys {list(r.keys())}")
        continue
    by_conv.setdefault(r["conv_id"], []).append(r)

participants, dia_ids, session_dates = {}, {}, {}
for conv, rows in by_conv.items():
    ids, speakers = set(), set()
    last_session, last_n, last_date = 0, 0, None
    for i, r in enumerate(rows):
        where = f"{conv} {r['dia_id']}"
        if r["turn_idx"] != i:
            err(f"{where}: turn_idx {r['turn_idx']} != {i}")
        if r["dia_id"] in ids:
            err(f"{where}: duplicate dia_id")
        ids.add(r["dia_id"])
        m = DIA_RE.match(r["dia_id"])
        if not m or int(m.group(1)) != r["session"]:
            err(f"{where}: dia_id does not match session {r['session']}")
            continue
        s, n = int(m.group(1)), int(m.group(2))
        if s == last_session:
            if n != last_n + 1 or r["session_date_time"] != session_dates[(conv, s)]:
                err(f"{where}: numbering or date breaks inside session")
        elif s == last_session + 1 and n == 1:
            d = DATE_RE.match(r["session_date_time"])
            if not d:
                err(f"{where}: session_date_time {r['session_date_time']!r} not in LoCoMo format")
            else:
                date = datetime.datetime.strptime(
                    f"{d.group(4)} {d.group(5)} {d.group(6)}", "%d %B %Y").date()
                if last_date and date <= last_date:
                    err(f"{where}: session dates not increasing")
                last_date = date
            session_dates[(conv, s)] = r["session_date_time"]
        else:
            err(f"{where}: sessions must start at D<n>:1 in order")
        last_session, last_n = s, n
        if not r["text"].strip():
            err(f"{where}: empty text")
        speakers.add(r["speaker"])
    for r in rows:
        names = [a.strip() for a in r["addressee"].split(",")]
        if r["addressee"] != "all" and not all(a in speakers and a != r["speaker"] for a in names):
            err(f"{conv} {r['dia_id']}: addressee {r['addressee']!r} not another participant or 'all'")
    participants[conv], dia_ids[conv] = speakers, ids

questions = set()
for r in qa:
    where = f"qa {r.get('qa_idx')}"
    if list(r.keys()) != QA_KEYS:
        err(f"{where}: keys {list(r.keys())}")
        continue
    if r["conv_id"] not in dia_ids:
        err(f"{where}: unknown conv_id")
        continue
    if r["category"] not in (1, 2, 3, 4) or r["kind"] not in KINDS:
        err(f"{where}: bad category or kind")
    if not r["evidence"] or len(set(r["evidence"])) != len(r["evidence"]):
        err(f"{where}: evidence empty or repeated")
    for e in r["evidence"]:
        if e not in dia_ids[r["conv_id"]]:
            err(f"{where}: evidence {e} not in {r['conv_id']}")
    if not r["question"].endswith("?") or not str(r["answer"]).strip():
        err(f"{where}: question must end with '?' and answer be non-empty")
    if (r["conv_id"], r["question"]) in questions:
        err(f"{where}: duplicate question")
    questions.add((r["conv_id"], r["question"]))
if [r.get("qa_idx") for r in qa] != list(range(len(qa))):
    err("qa_idx must run 0..n-1")

print(f"turns: {len(turns)}  questions: {len(qa)}")
for conv, rows in by_conv.items():
    n_q = sum(1 for r in qa if r["conv_id"] == conv)
    print(f"  {conv:10} turns {len(rows):3}  sessions {len({r['session'] for r in rows})}  "
          f"questions {n_q:3}  speakers {'/'.join(sorted(participants[conv]))}")
kinds = collections.Counter(r["kind"] for r in qa)
cats = collections.Counter(r["category"] for r in qa)
print("by kind:", dict(sorted(kinds.items())))
print("by category:", dict(sorted(cats.items())))
who = kinds["who-said"] + kinds["who-to-whom"]
print(f"who-said + who-to-whom: {who} ({100 * who / max(len(qa), 1):.1f} %)")
print("evidence turns per question: mean %.2f, max %d" % (
    sum(len(r["evidence"]) for r in qa) / max(len(qa), 1), max(len(r["evidence"]) for r in qa)))
addr = collections.Counter("all" if r["addressee"] == "all" else
                           ("several" if "," in r["addressee"] else "one") for r in turns)
print("addressee:", dict(addr))
if errors:
    print(f"{len(errors)} error(s):", *errors[:50], sep="\n  ")
    sys.exit(1)
print("OK")
