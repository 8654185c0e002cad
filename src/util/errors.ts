/** An error meant for the user: printed without a stack trace. */
export class UserError extends Error {
  constructor(
    message: string,
    readonly hint?: string,
  ) {
    super(message);
    this.name = 'UserError';
  }
}

/**
 * A UserError about the machine or the data rather than the command line (a
 * run in use, a full disk, a damaged file): printed without the usage, exit 1.
 */
export class StateError extends UserError {
  constructor(message: string, hint?: string) {
    super(message, hint);
    this.name = 'StateError';
  }
}

export function errorMessage(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/** The `code` of a Node system error (ENOENT, EEXIST, ...), or undefined for anything else. */
export function errnoCode(err: unknown): string | undefined {
  if (typeof err !== 'object' || err === null || !('code' in err)) return undefined;
  return typeof err.code === 'string' ? err.code : undefined;
}

/**
 * A failure of the infrastructure around a model (a sampler that lost its
 * logprobs, a server that stayed down), not of the model's work: a rollout
 * that meets one is never scored (rl/rollout.ts).
 */
export class InfraError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'InfraError';
  }
}
