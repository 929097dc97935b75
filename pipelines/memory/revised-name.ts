/**
 * A display name taught by a turn that was then given to another speaker ("Hi, I'm Ana" heard as the wrong voice): the
 * withdrawn `name` fact takes the name, or the alias, it taught away from the old speaker.
 */
import type { GraphStore } from '../../graph/graph-store.js';
import type { Fact, MemoryStore } from '../../graph/memory-store.js';
import type { TenantId } from '../../graph/types.js';
import { taughtNames, withTaughtNames } from '../interaction/participant-attributes.js';

/** Most current `name` facts of one participant read. */
const NAME_FACTS = 50;

/**
 * Take from `gone`'s subject the name `gone` (a withdrawn `name` fact) taught, unless another current `name` fact of
 * theirs says it too: a display name gives way to the newest other name they were told (or none), an alias is dropped,
 * so the aliases keep only names someone still stands for. Only a name the profile updates taught (`TAUGHT_NAMES`, then
 * dropped from it): a name the client set (at creation, by PATCH) or naming gave stays. Idempotent (a re-run after a
 * cut finds it no longer taught). Nothing for other facts.
 */
export async function unlearnName({ graph, memory }: { graph: GraphStore; memory: MemoryStore }, tenant: TenantId, gone: Fact): Promise<void> {
  const taught = gone.slot === 'name' ? gone.value?.toLowerCase() : undefined;
  if (!taught) return;
  const p = await graph.getParticipant(tenant, gone.subjectId);
  // Only a name the profile updates set (TAUGHT_NAMES): one the client or naming set stays, even the same word.
  const learned = p ? taughtNames(p.attributes) : new Set<string>();
  if (!p || !learned.has(taught)) return;
  const others = (await memory.listFacts(tenant, { subjectId: gone.subjectId, slot: 'name', limit: NAME_FACTS })).filter((f) => f.id !== gone.id);
  const is = (word: string | null | undefined, as: string | undefined): boolean => !!word && !!as && word.toLowerCase() === as;
  if (others.some((f) => is(f.value, taught))) return;
  const name = is(p.name, taught) ? others.find((f) => f.value)?.value ?? null : p.name;
  const aliases = p.aliases.filter((a) => !is(a, taught) && !is(a, name?.toLowerCase()));
  if (name !== p.name || aliases.length !== p.aliases.length) await graph.updateParticipant(tenant, p.id, { name, aliases });
  // After the names (a cut between leaves the word taught, found by the re-run), and on the attributes as stored at the
  // write: a PATCH landing meanwhile stays.
  await graph.updateParticipantAttributes(tenant, p.id, (stored) => {
    const words = taughtNames(stored);
    return words.delete(taught) ? withTaughtNames(stored, words) : stored;
  });
}
