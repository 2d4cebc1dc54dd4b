/**
 * Writes items in batches formed while the previous batch is being written, what group commit does
 * for a database log: the first item is written at once, alone; those that arrive while a write is
 * in flight go together into the next one (up to `maxBatch` each). A busy caller pays one round
 * trip for many items and an idle one waits for nothing. One write is in flight at a time.
 *
 * `write` resolves with one result per item, in order. When it throws, every item of that batch is
 * rejected with the error; the next batch is written all the same.
 */
export function batchWhileBusy<T, R>(
  write: (items: T[]) => Promise<R[]>,
  maxBatch: number,
): (item: T) => Promise<R> {
  if (!Number.isInteger(maxBatch) || maxBatch < 1) throw new RangeError('maxBatch must be at least 1');
  const queue: { item: T; resolve(result: R): void; reject(error: unknown): void }[] = [];
  let writing = false;

  async function drain(): Promise<void> {
    writing = true;
    while (queue.length > 0) {
      const batch = queue.splice(0, maxBatch);
      try {
        const results = await write(batch.map((entry) => entry.item));
        if (results.length !== batch.length)
          throw new Error(`a batch of ${batch.length} was written with ${results.length} results`);
        for (const [index, entry] of batch.entries()) entry.resolve(results[index]!);
      } catch (error) {
        for (const entry of batch) entry.reject(error);
      }
    }
    writing = false;
  }

  return (item) =>
    new Promise<R>((resolve, reject) => {
      queue.push({ item, resolve, reject });
      if (!writing) void drain();
    });
}
