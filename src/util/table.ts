/** A plain-text table: numeric columns right-aligned, text left-aligned. */
export function table(headers: string[], rows: (string | number)[][]): string {
  const body = rows.map((r) => r.map(String));
  const cells = [headers, ...body];
  const widths = headers.map((_, i) => Math.max(...cells.map((r) => (r[i] ?? '').length)));
  const numeric = headers.map((_, i) => body.length > 0 && body.every((r) => /^[\d.\s/%-]*$/.test(r[i] ?? '')));
  const line = (r: string[]) =>
    r
      .map((c, i) => (numeric[i] ? c.padStart(widths[i]!) : c.padEnd(widths[i]!)))
      .join('  ')
      .trimEnd();
  return [line(headers), widths.map((w) => '-'.repeat(w)).join('  '), ...body.map(line)].join('\n');
}
