/** An inclusive byte range, as in an HTTP `Range: bytes=start-end` header. */
export interface ByteRange {
  start: number;
  end: number;
}

/** The range starts at or beyond the end of the object: HTTP answers 416, naming `size` in Content-Range. */
export class RangeNotSatisfiableError extends Error {
  readonly range: ByteRange;
  readonly size: number;

  constructor(range: ByteRange, size: number) {
    super(`byte range ${range.start}-${range.end} is outside an object of ${size} bytes`);
    this.range = range;
    this.size = size;
    this.name = 'RangeNotSatisfiableError';
  }
}

/** Throws a TypeError for a range no caller should build (negative, reversed, fractional). */
export function assertWellFormedRange(range: ByteRange): void {
  const { start, end } = range;
  if (!Number.isSafeInteger(start) || !Number.isSafeInteger(end) || start < 0 || end < start) {
    throw new TypeError(`malformed byte range ${start}-${end}`);
  }
}

/** Clamps `range` to an object of `size` bytes, as HTTP does with an end past the last byte. */
export function clampRange(range: ByteRange, size: number): ByteRange {
  assertWellFormedRange(range);
  if (range.start >= size) throw new RangeNotSatisfiableError(range, size);
  return { start: range.start, end: Math.min(range.end, size - 1) };
}
