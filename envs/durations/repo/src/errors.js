// Error raised when a duration string cannot be understood.
export class DurationParseError extends Error {
  constructor(message, input, index = -1) {
    super(index >= 0 ? `${message} at position ${index}` : message);
    this.name = 'DurationParseError';
    this.input = input;
    this.index = index;
  }
}

export function assertFinite(value, what = 'Duration') {
  if (typeof value !== 'number' || !Number.isFinite(value)) {
    throw new TypeError(`${what} must be a finite number, got ${String(value)}`);
  }
  return value;
}
