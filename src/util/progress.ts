// Progress for long work, on stderr: rewritten in place on a terminal,
// one line per update elsewhere (CI logs, pipes).
export class Progress {
  private readonly tty = Boolean(process.stderr.isTTY);
  private width = 0;

  constructor(private readonly quiet = false) {}

  update(message: string): void {
    if (this.quiet) return;
    if (this.tty) {
      // One line of the terminal: a wrapped line would not be rewritten in place.
      const width = Math.min(120, (process.stderr.columns || 120) - 1);
      const text = message.length > width ? `${message.slice(0, width - 3)}...` : message;
      process.stderr.write(`\r${text.padEnd(this.width)}`);
      this.width = text.length;
    } else {
      process.stderr.write(`${message}\n`);
    }
  }

  /** Ends the in-place line so normal output starts on a fresh one. */
  done(): void {
    if (this.tty && this.width > 0) process.stderr.write(`\r${' '.repeat(this.width)}\r`);
    this.width = 0;
  }
}
