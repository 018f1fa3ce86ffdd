/** Where two JSON values first differ, as a JSON Pointer and both values: for the answer check's message. */
import { isDeepStrictEqual } from 'node:util';

const shown = (value: unknown): string => (value === undefined ? 'nothing' : JSON.stringify(value).slice(0, 80));

export function firstDifference(sent: unknown, expected: unknown, path = ''): string {
  if (
    typeof sent === 'object' &&
    sent !== null &&
    typeof expected === 'object' &&
    expected !== null &&
    Array.isArray(sent) === Array.isArray(expected)
  ) {
    const sentRecord = sent as Record<string, unknown>;
    const expectedRecord = expected as Record<string, unknown>;
    for (const key of new Set([...Object.keys(sentRecord), ...Object.keys(expectedRecord)])) {
      if (isDeepStrictEqual(sentRecord[key], expectedRecord[key])) continue;
      return firstDifference(sentRecord[key], expectedRecord[key], `${path}/${key}`);
    }
  }
  return `${path || '/'}: the answer has ${shown(sent)}, the schema writes ${shown(expected)}`;
}
