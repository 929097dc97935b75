/** Vector collection names: one per memory layer, each bound to one embedding space. */

/** Layers the memory pipeline writes vectors for. */
export type IndexedLayer = 'interaction' | 'fact' | 'profile';

/** The vector collection holding `layer`'s points. */
export function collectionFor(layer: IndexedLayer): string {
  return `memory_${layer}`;
}

/** Every collection the memory pipeline owns. */
export const MEMORY_LAYERS: readonly IndexedLayer[] = ['interaction', 'fact', 'profile'];
