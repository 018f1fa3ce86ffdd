/**
 * Polls until `read` gives a value, for what arrives asynchronously (a job run, a broadcast message).
 * The timeout only ends a test that would otherwise hang: nothing asserts how long it took.
 */
export async function waitFor<T>(
  what: string,
  read: () => Promise<T | null | undefined | false> | T | null | undefined | false,
  timeoutMs = 10_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
