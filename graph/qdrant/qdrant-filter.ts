import type { Schemas } from '@qdrant/js-client-rest';
import { pointId } from './qdrant-common.js';

/** Payload key of the tenant on every point (indexed as the tenant key). */
export const TENANT_KEY = 'tenant';
/** Payload key of the Parley id on every point. */
export const ID_KEY = 'parley_id';
/** Payload fields indexed as keywords in every Parley collection. */
export const KEYWORD_FIELDS = ['layer', 'sessionId', 'speakerId', 'addresseeIds'] as const;

/** The filters the vector store and the lexical index share. */
export interface PayloadFilter {
  layer?: string | string[];
  sessionId?: string;
  speakerId?: string;
  addresseeId?: string;
  ids?: string[];
}

type Condition = NonNullable<Schemas['Filter']['must']> extends (infer C)[] | infer C ? C : never;

/** A Qdrant filter: always the tenant, plus every field the Parley filter sets (AND). */
export function toQdrantFilter(tenant: string, filter: PayloadFilter = {}): Schemas['Filter'] {
  const must: Condition[] = [{ key: TENANT_KEY, match: { value: tenant } }];
  if (filter.layer !== undefined) {
    const layers = Array.isArray(filter.layer) ? filter.layer : [filter.layer];
    must.push({ key: 'layer', match: { any: layers } });
  }
  if (filter.sessionId !== undefined) must.push({ key: 'sessionId', match: { value: filter.sessionId } });
  if (filter.speakerId !== undefined) must.push({ key: 'speakerId', match: { value: filter.speakerId } });
  // On an array field, `match.value` holds when any element equals it.
  if (filter.addresseeId !== undefined) must.push({ key: 'addresseeIds', match: { value: filter.addresseeId } });
  if (filter.ids !== undefined) must.push({ has_id: filter.ids.map((id) => pointId(tenant, id)) });
  return { must };
}
