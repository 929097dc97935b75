/** One colour per speaker, the same in every view: a hue picked from the participant id. */
const PALETTE = ['#2f7ed8', '#d9534f', '#2ca02c', '#9467bd', '#ff7f0e', '#17becf', '#8c564b', '#e377c2', '#7f7f00', '#1f3a93'];

export function speakerColor(id: string): string {
  let h = 0;
  for (let i = 0; i < id.length; i++) h = (h * 31 + id.charCodeAt(i)) >>> 0;
  return PALETTE[h % PALETTE.length]!;
}
