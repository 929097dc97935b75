import crypto from 'node:crypto';

/** A new random id with a readable prefix (`p_…`, `u_…`, `f_…`). */
export function newId(prefix: string): string {
  return `${prefix}_${crypto.randomUUID().replaceAll('-', '')}`;
}

/** The key an entity is found by: its name trimmed, lower-cased, with single spaces. */
export function entityKey(name: string): string {
  return name.trim().toLowerCase().replace(/\s+/g, ' ');
}
