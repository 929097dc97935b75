/**
 * One colour per speaker, the same in every view of the page: speakers get hues in the order the page first
 * meets them, each a golden angle (137.5°) from the last, so the first several are far apart.
 */
const order = new Map<string, number>();

export function speakerColor(id: string): string {
  let i = order.get(id);
  if (i === undefined) {
    i = order.size;
    order.set(id, i);
  }
  return `hsl(${Math.round((215 + i * 137.508) % 360)}, 65%, 42%)`;
}
