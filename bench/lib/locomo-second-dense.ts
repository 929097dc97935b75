import type { VectorStore } from '../../graph/vector-store.js';
import { collectionFor } from '../../pipelines/memory/collections.js';
import type { SecondDenseChannel } from '../../pipelines/retrieval/second-dense.js';
import type { LocomoTurn } from './locomo.js';

/** The turns of the conversations asked, and how they map to the store. */
export interface SecondDenseInput {
  byConv: Map<string, LocomoTurn[]>;
  /** `conv|dia_id` → utterance id. */
  diaToUtt: Map<string, string>;
  tenantOf: (conv: string) => string;
}

/** The text a turn was ingested with (`retrieval-locomo.ts`: a shared photo's caption is part of it). */
export function ingestedText(t: LocomoTurn & { img_caption?: string }): string {
  return t.img_caption ? `${t.text} [shares a photo: ${t.img_caption}]` : t.text;
}

/** The ids and texts of a conversation's ingested turns. */
function turnsOf(input: SecondDenseInput, conv: string): { id: string; text: string }[] {
  return (input.byConv.get(conv) ?? []).flatMap((t) => {
    const id = input.diaToUtt.get(`${conv}|${t.dia_id}`);
    return id ? [{ id, text: ingestedText(t) }] : [];
  });
}

/** The conversations of `convs` whose turns the channel's collection does not hold in full. Reads only. */
export async function convsLackingSecondDense(vectors: VectorStore, channel: SecondDenseChannel, input: SecondDenseInput, convs: readonly string[]): Promise<string[]> {
  if (!(await vectors.collectionSpace(channel.collection))) return [...convs];
  const lacking: string[] = [];
  for (const conv of convs) {
    if ((await vectors.count(input.tenantOf(conv), channel.collection)) !== turnsOf(input, conv).length) lacking.push(conv);
  }
  return lacking;
}

/**
 * Embed the turns of `convs` with the second dense channel into its collection, each under the turn's id with
 * the payload of the turn's point in the interaction collection (so the loop's filters hold); returns how many.
 */
export async function indexSecondDense(vectors: VectorStore, channel: SecondDenseChannel, input: SecondDenseInput, convs: readonly string[]): Promise<number> {
  await vectors.ensureCollection(channel.collection, channel.space);
  let n = 0;
  for (const conv of convs) {
    const tenant = input.tenantOf(conv);
    const turns = turnsOf(input, conv);
    const points = new Map((await vectors.get(tenant, collectionFor('interaction'), turns.map((t) => t.id))).map((p) => [p.id, p.payload]));
    const kept = turns.filter((t) => points.has(t.id));
    if (kept.length !== turns.length) throw new Error(`${conv}: ${turns.length - kept.length} turns have no vector in the interaction collection`);
    const vs = await channel.embedPassages(kept.map((t) => t.text));
    await vectors.upsert(tenant, channel.collection, kept.map((t, i) => ({ id: t.id, vector: vs[i]!, payload: points.get(t.id)! })));
    n += kept.length;
  }
  return n;
}
