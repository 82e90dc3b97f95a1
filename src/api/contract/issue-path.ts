/** A validation issue's path as people read it: `data.items[3].quality_score`. */
export function issuePath(path: readonly PropertyKey[]): string {
  return path.reduce<string>((text, part) => (typeof part === 'number' ? `${text}[${part}]` : text ? `${text}.${String(part)}` : String(part)), '');
}
