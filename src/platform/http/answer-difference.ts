/**
 * Where two JSON values first differ: the path (keys joined by `/`) and the kind of value each has
 * there, for the answer check's message. Never the values: the difference may be what must not be sent.
 */
import { isDeepStrictEqual } from 'node:util';

function kindOf(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

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
  const [sentKind, expectedKind] = [kindOf(sent), kindOf(expected)];
  const other = sentKind === expectedKind ? `another ${sentKind.replace(/^an? /, '')}` : expectedKind;
  return `${path || '/'}: the answer has ${sentKind}, the schema writes ${other}`;
}
