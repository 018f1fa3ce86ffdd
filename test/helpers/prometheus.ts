/** Reading a Prometheus text exposition as an operator's query would: a series' value by name and labels. */

export interface Series {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/** Every sample line of the exposition (comments left out). */
export function parseExposition(text: string): Series[] {
  const series: Series[] = [];
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)/.exec(line);
    if (!match) throw new Error(`not a sample line: ${line}`);
    const labels: Record<string, string> = {};
    for (const pair of (match[2] ?? '').matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g))
      labels[pair[1]!] = pair[2]!.replace(/\\(.)/g, (_all, escaped: string) => (escaped === 'n' ? '\n' : escaped));
    series.push({ name: match[1]!, labels, value: Number(match[3]) });
  }
  return series;
}

/** The sum of the series named `name` whose labels include `labels` (0 when there is none), as `sum(name{...})`. */
export function sumOf(series: Series[], name: string, labels: Record<string, string> = {}): number {
  return series
    .filter((one) => one.name === name && Object.entries(labels).every(([key, value]) => one.labels[key] === value))
    .reduce((total, one) => total + one.value, 0);
}

/** Whether any series has this name (and these labels). */
export function hasSeries(series: Series[], name: string, labels: Record<string, string> = {}): boolean {
  return series.some(
    (one) => one.name === name && Object.entries(labels).every(([key, value]) => one.labels[key] === value),
  );
}
