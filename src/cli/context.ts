export interface CliContext {
  positionals: string[];
  flags: Record<string, string | boolean | string[] | undefined>;
  out: (line: string) => void;
  err: (line: string) => void;
  /** The command line as given, after `frognano` (to name a holder or the command that resumes). */
  argv?: string[];
  /** Asks the user a question on the terminal; absent where there is none (a pipe, CI), so a command that must ask refuses instead. */
  ask?: (question: string) => Promise<string>;
}
