// The one place long observations are shortened: the head and the tail are
// kept (a command's first lines say what it did, its last lines how it
// ended), the middle is replaced by a notice saying how much was cut.

/** Cuts `text` to at most about `maxChars` characters, keeping head and tail on line boundaries where possible. */
export function truncateMiddle(text: string, maxChars: number): string {
  if (text.length <= maxChars) return text;
  const budget = Math.max(0, maxChars);
  let headEnd = Math.floor(budget / 2);
  let tailStart = text.length - (budget - headEnd);
  // Snap to whole lines when that loses little (at most a fifth of each half).
  const nl = text.lastIndexOf('\n', headEnd - 1);
  if (nl >= 0 && headEnd - nl <= budget / 10) headEnd = nl + 1;
  const nl2 = text.indexOf('\n', tailStart);
  if (nl2 >= 0 && nl2 - tailStart <= budget / 10) tailStart = nl2 + 1;
  if (tailStart < headEnd) tailStart = headEnd;
  const cut = text.slice(headEnd, tailStart);
  const lines = cut.split('\n').length - 1;
  const notice =
    `\n[... ${cut.length} characters (${lines} lines) cut from the middle of this output; ` + `narrow the command or read a smaller range to see them ...]\n`;
  return text.slice(0, headEnd) + notice + text.slice(tailStart);
}

/** Cuts one long line to `maxChars`, saying how much was dropped. */
export function truncateLine(line: string, maxChars: number): string {
  if (line.length <= maxChars) return line;
  return `${line.slice(0, maxChars)}... [${line.length - maxChars} more characters on this line]`;
}
