/**
 * Polls `probe` until it gives a value (anything but undefined) and returns it, failing after
 * `timeoutMs`: a test waits for what the product does in the background, never unbounded.
 */
export async function eventually<T>(probe: () => Promise<T | undefined> | T | undefined, timeoutMs = 30_000, what = 'the condition', everyMs = 100): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}
