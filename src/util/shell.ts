/** One argument for `bash -c`: left bare when it holds only safe characters, single-quoted otherwise. */
export function shellQuote(arg: string): string {
  return /^[\w@%+=:,./-]+$/.test(arg) ? arg : `'${arg.replaceAll("'", `'\\''`)}'`;
}
