"""
Issue #16 item 5: what differs between two LoCoMo stores built by `node dist/bench/retrieval-locomo.js --split dev
--ingest-only --store DIR` (two builds from the same code should be the same). Turns are matched by (tenant, session,
seq), facts by their text and fields (speaker and subject by participant name), entities by key; vectors compared bit
for bit. Read-only (SQLite stores only).
Run: python3 bench/locomo-store-diff.py STORE_A STORE_B
"""
import sqlite3, sys, collections, struct, math
def load(path):
    c = sqlite3.connect(f'file:{path}/parley.db?mode=ro', uri=True)
    utt = {(t, i): (t, s, q) for t, i, s, q in c.execute('select tenant, id, session_id, seq from utterances')}
    names = {(t, i): (n or i) for t, i, n in c.execute('select tenant, id, name from participants')}
    vec = {}
    for t, coll, i, v in c.execute("select tenant, collection, id, vector from vectors where collection in ('memory_interaction')"):
        if (t, i) in utt: vec[utt[(t, i)]] = v
    facts = collections.Counter()
    fvec = collections.defaultdict(list)
    for row in c.execute('select tenant, id, content, speaker_id, subject_id, kind, layer, slot, value, valid_from, valid_to, superseded_by is null, event_time, valid_until from memory_facts'):
        t, fid, content, sp, sub, *rest = row
        key = (t, content, names.get((t, sp), sp), names.get((t, sub), sub), *rest)
        facts[key] += 1
    for t, i, v, content in c.execute("select v.tenant, v.id, v.vector, f.content from vectors v join memory_facts f on f.tenant = v.tenant and f.id = v.id where v.collection = 'memory_fact'"):
        fvec[(t, content)].append(v)
    return vec, facts, fvec
a, b = load(sys.argv[1]), load(sys.argv[2])
va, vb = a[0], b[0]
common = va.keys() & vb.keys()
differ = [k for k in common if va[k] != vb[k]]
def cos(x, y):
    n = len(x) // 4; p = struct.unpack(f'{n}f', x); q = struct.unpack(f'{n}f', y)
    return sum(i * j for i, j in zip(p, q)) / math.sqrt(sum(i * i for i in p) * sum(j * j for j in q))
mincos = min((cos(va[k], vb[k]) for k in differ), default=1.0)
print(f'turn vectors: {len(va)} vs {len(vb)}, common {len(common)}, differ {len(differ)} (lowest cosine {mincos:.6f})')
fa, fb = a[1], b[1]
onlyA = fa - fb; onlyB = fb - fa
print(f'facts: {sum(fa.values())} vs {sum(fb.values())}; only in A {sum(onlyA.values())}, only in B {sum(onlyB.values())}')
ca = collections.Counter((k[0], k[1]) for k in fa.elements()); cb = collections.Counter((k[0], k[1]) for k in fb.elements())
print(f'fact texts (tenant, content): only in A {sum((ca - cb).values())}, only in B {sum((cb - ca).values())}')
for k in list(onlyA)[:15]: print('  A only:', k)
for k in list(onlyB)[:15]: print('  B only:', k)
fva, fvb = a[2], b[2]
fc = [k for k in fva.keys() & fvb.keys() if len(fva[k]) == 1 and len(fvb[k]) == 1]
print(f'fact vectors (same text, one each): {len(fc)} compared, differ {sum(1 for k in fc if fva[k][0] != fvb[k][0])}')

def q(path, sql):
    c = sqlite3.connect(f'file:{path}/parley.db?mode=ro', uri=True)
    return collections.Counter(c.execute(sql).fetchall())
for name, sql in [
  ('lexical docs (tenant, text, layer)', 'select tenant, text, layer from lexical_docs'),
  ('entities (tenant, key, name, description, memory_count)', 'select tenant, key, name, description, memory_count from lb_entities'),
  ('entity vectors (tenant, entity key, vector)', "select v.tenant, e.key, v.vector from vectors v join lb_entities e on e.tenant = v.tenant and e.id = v.id where v.collection = 'left_brain_entity'"),
  ('persona (tenant, kind, target, valence, label, strength, evidence_count)', 'select tenant, kind, target, valence, label, strength, evidence_count from memory_persona'),
  ('participants (tenant, name, aliases, attributes)', 'select tenant, name, aliases, attributes from participants'),
]:
    a, b = q(sys.argv[1], sql), q(sys.argv[2], sql)
    print(f'{name}: {sum(a.values())} vs {sum(b.values())}; only in A {sum((a-b).values())}, only in B {sum((b-a).values())}')
