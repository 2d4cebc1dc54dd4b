/** Polls `probe` until it stops throwing, or throws its last error after `timeoutMs`. */
export async function eventually<T>(
  probe: () => Promise<T> | T,
  timeoutMs = 10_000,
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
