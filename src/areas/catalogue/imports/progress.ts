/** The import's progress bar: one status line, redrawn at most every 100 ms and at the end. */

const width = 30;

export function progressLine(label: string, done: number, total: number): string {
  const filled = total === 0 ? width : Math.round((done / total) * width);
  const percent = total === 0 ? 100 : Math.floor((done / total) * 100);
  return `${label} [${'#'.repeat(filled)}${'-'.repeat(width - filled)}] ${done}/${total} rows ${percent}%`;
}

/** A progress callback drawing through `show`, throttled; nothing when there is no terminal to draw on. */
export function progressBar(label: string, show: ((line: string) => void) | undefined, intervalMs = 100) {
  if (show === undefined) return undefined;
  let last = -Infinity;
  return (done: number, total: number) => {
    const now = performance.now();
    if (done < total && now - last < intervalMs) return;
    last = now;
    show(progressLine(label, done, total));
  };
}
