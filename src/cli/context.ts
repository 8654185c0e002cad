export interface CliContext {
  positionals: string[];
  flags: Record<string, string | boolean | string[] | undefined>;
  out: (line: string) => void;
  err: (line: string) => void;
}
