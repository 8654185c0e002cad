/** How many may run at once: a number, or a function asked again whenever one finishes (a limit that can grow). */
export type Workers = number | (() => number);

/** Runs fn over items with at most `workers` in flight, started in item order; resolves when all are done. */
export async function pool<T>(items: T[], workers: Workers, fn: (item: T) => Promise<void>): Promise<void> {
  const limit = () => Math.max(1, typeof workers === 'number' ? workers : workers());
  let next = 0;
  let running = 0;
  let failed = false;
  await new Promise<void>((resolve, reject) => {
    const fill = () => {
      if (next >= items.length && running === 0) return resolve();
      while (!failed && next < items.length && running < limit()) {
        const item = items[next++]!;
        running++;
        fn(item).then(
          () => {
            running--;
            fill();
          },
          (err: unknown) => {
            failed = true; // nothing new starts; what runs finishes on its own
            reject(err instanceof Error ? err : new Error(String(err)));
          },
        );
      }
    };
    fill();
  });
}
