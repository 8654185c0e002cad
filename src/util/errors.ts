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

const UNREACHABLE = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EHOSTUNREACH', 'ENETUNREACH', 'ETIMEDOUT', 'ECONNRESET', 'EAI_AGAIN']);

/** A server that could not be reached (a queue, a model server, an engine): one line naming it, or null for any other error. */
export function networkFailure(err: unknown): StateError | null {
  const code = errnoCode(err);
  if (code === undefined || !UNREACHABLE.has(code) || typeof err !== 'object' || err === null) return null;
  const at =
    'address' in err && typeof err.address === 'string'
      ? `${err.address}${'port' in err && typeof err.port === 'number' ? `:${err.port}` : ''}`
      : 'hostname' in err && typeof err.hostname === 'string'
        ? err.hostname
        : 'a server';
  return new StateError(`cannot reach ${at} (${code})`, 'check the address and that the server runs there');
}
