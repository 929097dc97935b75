/** Messages between `UseLiteEmbedder` and its worker thread. */

export type UseLiteRequest = { id: number; op: 'embed'; texts: string[] };

export type UseLiteResponse =
  | { id: number; ok: true; vectors: Float32Array[] }
  | { id: number; ok: false; error: string };

/** First message from the worker: loaded, or why not. */
export type UseLiteHandshake = { type: 'ready' } | { type: 'failed'; error: string };
