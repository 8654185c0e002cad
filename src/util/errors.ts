/** An error meant for the user: printed without a stack trace. */
export class UserError extends Error {
  constructor(message: string, readonly hint?: string) {
    super(message);
    this.name = 'UserError';
  }
}

export function errorMessage(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
