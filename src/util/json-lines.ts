/** Values as JSON Lines: one JSON text per line, each line ended. */
export function jsonLines(values: readonly unknown[]): string {
  return values.map((v) => `${JSON.stringify(v)}\n`).join('');
}
