import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The compiled LoCoMo bench (tests run from dist/test/…). */
export const LOCOMO_BENCH = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../bench/retrieval-locomo.js');

/** Write `turns.jsonl` and `qa.jsonl` into `dir`: a conversation in LoCoMo's format, two sessions of four turns, two questions. */
export function writeTinyLocomoSet(dir: string): void {
  const lines = [
    ['Ana', 'Ben', 'I adopted a dog named Rex last week.'], ['Ben', 'Ana', 'I am training for a marathon in Boston.'],
    ['Ana', 'Ben', 'My sister Carla moved to Lisbon.'], ['Ben', 'Ana', 'I started painting landscapes on weekends.'],
  ] as const;
  const turns = [1, 2].flatMap((session) => lines.map(([speaker, addressee, text], i) => ({
    conv_id: 'tiny', session, session_date_time: `1:56 pm on ${8 + session} May, 2023`, dia_id: `D${session}:${i + 1}`,
    speaker, addressee, text: session === 1 ? text : `${text} Still true.`, turn_idx: i,
  })));
  const qas = [
    { conv_id: 'tiny', question: "What is the name of Ana's dog?", answer: 'Rex', evidence: ['D1:1'], category: 1 },
    { conv_id: 'tiny', question: 'Where did Carla move?', answer: 'Lisbon', evidence: ['D1:3'], category: 4 },
  ];
  writeFileSync(path.join(dir, 'turns.jsonl'), `${turns.map((t) => JSON.stringify(t)).join('\n')}\n`);
  writeFileSync(path.join(dir, 'qa.jsonl'), `${qas.map((q) => JSON.stringify(q)).join('\n')}\n`);
}

