/**
 * Polls `probe` until it gives a value (anything but undefined) and returns it, failing after
 * `timeoutMs`: a test waits for what the product does in the background, never unbounded. The
 * default is a bound to fail by, not a measure, and generous so that a loaded machine is slow
 * rather than failing.
 */
export async function eventually<T>(probe: () => Promise<T | undefined> | T | undefined, timeoutMs = 120_000, what = 'the condition', everyMs = 100): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}
