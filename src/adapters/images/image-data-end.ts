/**
 * Where an image's own data ends: bytes appended after it (after a JPEG's end-of-image marker, a PNG's
 * IEND chunk, a WebP's RIFF length, a GIF's trailer, the last box of an AVIF/HEIC file) are no part of
 * the picture and are not kept. Each format is walked by its structure (segment, chunk, block or box
 * lengths), never by searching for a marker, so an end marker inside metadata (an EXIF thumbnail) does
 * not cut the image short. Data the walk cannot follow to its end is returned whole: the decoder then
 * judges it.
 */

/** The image's bytes without what follows its end (the same buffer when nothing does). */
export function withoutTrailingBytes(data: Buffer): Buffer {
  const end = imageDataEnd(data);
  return end === null || end >= data.length ? data : data.subarray(0, end);
}

/** The offset just after the image's last byte, or null when the format or its structure is unknown. */
export function imageDataEnd(data: Buffer): number | null {
  const starts = (bytes: number[], at = 0) => bytes.every((byte, index) => data[at + index] === byte);
  if (starts([0xff, 0xd8])) return jpegEnd(data);
  if (starts([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return pngEnd(data);
  if (starts([0x47, 0x49, 0x46, 0x38])) return gifEnd(data);
  if (starts([0x52, 0x49, 0x46, 0x46]) && starts([0x57, 0x45, 0x42, 0x50], 8)) return riffEnd(data);
  if (starts([0x66, 0x74, 0x79, 0x70], 4)) return isoBoxesEnd(data);
  return null;
}

/** Segments (marker, 2-byte length) up to each scan, entropy-coded data up to the next marker, then EOI. */
function jpegEnd(data: Buffer): number | null {
  let at = 2;
  while (at + 1 < data.length) {
    if (data[at] !== 0xff) return null;
    const marker = data.readUInt8(at + 1);
    if (marker === 0xff) {
      at += 1; // fill byte
      continue;
    }
    if (marker === 0xd9) return at + 2; // EOI
    if ((marker >= 0xd0 && marker <= 0xd7) || marker === 0x01) {
      at += 2; // standalone markers (RSTn, TEM)
      continue;
    }
    if (at + 3 >= data.length) return null;
    const length = data.readUInt16BE(at + 2);
    if (length < 2) return null;
    at += 2 + length;
    if (marker === 0xda) {
      // Scan data: up to the next marker that is neither a stuffed 0xFF00 nor a restart marker.
      while (at + 1 < data.length) {
        if (data[at] === 0xff) {
          const next = data.readUInt8(at + 1);
          if (next !== 0x00 && next !== 0xff && !(next >= 0xd0 && next <= 0xd7)) break;
        }
        at += 1;
      }
    }
  }
  return null;
}

/** Chunks (4-byte length, type, data, CRC) up to and including IEND. */
function pngEnd(data: Buffer): number | null {
  let at = 8;
  while (at + 12 <= data.length) {
    const length = data.readUInt32BE(at);
    const type = data.toString('latin1', at + 4, at + 8);
    at += 12 + length;
    if (type === 'IEND') return at <= data.length ? at : null;
  }
  return null;
}

/** RIFF: the little-endian size after "RIFF" counts every byte after it (padded to an even length). */
function riffEnd(data: Buffer): number | null {
  if (data.length < 12) return null;
  const size = data.readUInt32LE(4);
  return 8 + size + (size % 2);
}

/** Header, screen descriptor and colour table, then extensions and images as sub-blocks, then the trailer. */
function gifEnd(data: Buffer): number | null {
  if (data.length < 13) return null;
  const colourTable = (flags: number) => (flags & 0x80 ? 3 * 2 ** ((flags & 0x07) + 1) : 0);
  let at = 13 + colourTable(data.readUInt8(10));
  const skipSubBlocks = () => {
    while (at < data.length) {
      const size = data.readUInt8(at);
      at += 1 + size;
      if (size === 0) return true;
    }
    return false;
  };
  while (at < data.length) {
    const introducer = data.readUInt8(at);
    if (introducer === 0x3b) return at + 1; // trailer
    if (introducer === 0x21) {
      at += 2; // introducer and label
      if (!skipSubBlocks()) return null;
    } else if (introducer === 0x2c) {
      if (at + 10 > data.length) return null;
      at += 10 + colourTable(data.readUInt8(at + 9)) + 1; // descriptor, local colour table, LZW code size
      if (!skipSubBlocks()) return null;
    } else {
      return null;
    }
  }
  return null;
}

/** The top-level boxes a still AVIF or HEIC image is made of; padding and unknown boxes after the last go. */
const imageBoxes = new Set(['ftyp', 'meta', 'mdat', 'moov']);

/**
 * ISO base media (AVIF, HEIC): top-level boxes, each with its 4-byte size (or 1 and a 64-bit size) and
 * a four-letter type. The image ends with the last of its own boxes; what follows (padding, unknown
 * boxes, bytes that are no box) goes. Boxes before it stay: the item locations are file offsets.
 */
function isoBoxesEnd(data: Buffer): number | null {
  let at = 0;
  let end: number | null = null;
  while (at + 8 <= data.length) {
    const type = data.toString('latin1', at + 4, at + 8);
    if (!/^[\x20-\x7e]{4}$/.test(type)) break;
    let size = data.readUInt32BE(at);
    if (size === 1) {
      if (at + 16 > data.length) break;
      size = Number(data.readBigUInt64BE(at + 8));
      if (size < 16) break;
    } else if (size === 0) {
      return imageBoxes.has(type) ? data.length : end; // a box "to the end of the file"
    } else if (size < 8) {
      break;
    }
    if (at + size > data.length) break;
    at += size;
    if (imageBoxes.has(type)) end = at;
  }
  return end;
}
