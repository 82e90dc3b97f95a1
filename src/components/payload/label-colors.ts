/**
 * A colour per label, the same in every item: a hash of the label picks from a palette of
 * well-separated hues (after Sasha Trubetskoy's 20 distinct colours), strong enough to read
 * over photographs. Two labels may share a colour; the legend and each shape's name still tell
 * them apart.
 */
const LABEL_PALETTE = [
  '#e6194b',
  '#3cb44b',
  '#ffe119',
  '#4363d8',
  '#f58231',
  '#911eb4',
  '#42d4f4',
  '#f032e6',
  '#bfef45',
  '#469990',
  '#9a6324',
  '#800000',
] as const;

/** The colour of shapes without a label. */
const UNLABELLED_COLOR = '#94a3b8';

/** FNV-1a over the UTF-16 code units: small, fast and well spread for short strings. */
function hash(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

export function labelColor(label: string | undefined): string {
  if (!label) return UNLABELLED_COLOR;
  return LABEL_PALETTE[hash(label) % LABEL_PALETTE.length]!;
}
