/**
 * What `work` gives within `ms`, or `late` when the time runs out first (the readiness checks, a
 * media variant's render, the backlogs of /metrics). The work itself goes on; its rejection after the
 * time ran out is handled (Promise.race has subscribed to it), one before is thrown. The timer never
 * outlives the wait.
 */
export async function within<T, L>(work: Promise<T>, ms: number, late: L): Promise<T | L> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<L>((resolve) => {
    timer = setTimeout(resolve, ms, late);
  });
  try {
    return await Promise.race([work, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
