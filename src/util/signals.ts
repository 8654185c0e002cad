// Ctrl-C, SIGTERM and SIGHUP in one place. By default they end the process
// with the conventional status (exit handlers then remove workspaces); a
// command with work worth finishing (train, worker) intercepts them instead.
const CODES = { SIGINT: 2, SIGTERM: 15, SIGHUP: 1 } as const;
export type StopSignal = keyof typeof CODES;
const SIGNALS: readonly StopSignal[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];

/** Returns true when it handled the signal (the process goes on); false lets the default exit happen. */
export type SignalInterceptor = (signal: StopSignal) => boolean;

const interceptors: SignalInterceptor[] = [];
let installed = false;

/** The exit status a signal conventionally gives: 128 + its number. */
export const signalStatus = (signal: StopSignal): number => 128 + CODES[signal];

function onSignal(signal: StopSignal): void {
  const top = interceptors.at(-1);
  if (top?.(signal)) return;
  process.exit(signalStatus(signal));
}

/** Makes the stop signals end the process through process.exit (so 'exit' handlers run). */
export function installSignalExit(): void {
  if (installed) return;
  installed = true;
  for (const signal of SIGNALS) process.on(signal, () => onSignal(signal));
}

/** Handles the stop signals until the returned function is called; the newest interceptor is asked first. */
export function interceptSignals(fn: SignalInterceptor): () => void {
  installSignalExit();
  interceptors.push(fn);
  return () => {
    const i = interceptors.lastIndexOf(fn);
    if (i >= 0) interceptors.splice(i, 1);
  };
}

/** Resolves at the first stop signal, which then ends nothing by itself (a server closes first); a later one ends the process as usual. */
export function untilStopSignal(): Promise<void> {
  return new Promise((done) => {
    const release = interceptSignals(() => {
      release();
      done();
      return true;
    });
  });
}
