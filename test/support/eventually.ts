/**
 * How long `eventually` keeps trying by default. What takes a second on a quiet machine can take
 * ten or more on a busy two-core CI box (load 10 to 16), so the limit only catches what never
 * happens; a probe that passes returns at once, whatever the limit.
 */
export const EVENTUALLY_TIMEOUT_MS = 30_000;

/** Polls `probe` until it stops throwing, or throws its last error after `timeoutMs`. */
export async function eventually<T>(
  probe: () => Promise<T> | T,
  timeoutMs = EVENTUALLY_TIMEOUT_MS,
  intervalMs = 20,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      return await probe();
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, intervalMs));
    }
  }
}
