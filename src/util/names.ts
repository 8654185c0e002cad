// Names that arrive from outside (a URL, a flag) and become part of a path
// under the data directory: only plain names, so none can climb out of it.

/** Letters, digits, '.', '_' and '-', starting with a letter, digit or '_', without '..'; at most 200 characters. */
export function isPlainName(name: string): boolean {
  return /^[A-Za-z0-9_][A-Za-z0-9._-]{0,199}$/.test(name) && !name.includes('..');
}
