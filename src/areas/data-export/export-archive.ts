/**
 * A user's export as a ZIP, streamed: yazl's output goes to the client as it is made. Entries are
 * added one at a time, each once the one before it has been consumed, so an export holds one batch
 * of rows (or one chunk of a file) whatever the size of the account, and a slow client slows the
 * reads down (back-pressure through yazl to the row generators). Each entry's size and SHA-256 are
 * measured as it passes; the list of files goes to a scratch file on disk and is read back into
 * manifest.json, the last entry, so even the manifest's list of files does not grow in memory.
 */
import { createHash } from 'node:crypto';
import { once } from 'node:events';
import { createReadStream, createWriteStream, type WriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { Readable, Transform } from 'node:stream';
import { finished, pipeline } from 'node:stream/promises';
import { ZipFile } from 'yazl';
import type { ExportSection } from '../../platform/exports/export-registry.ts';
import { formatTimestamp } from '../../platform/http/time.ts';

/** Written in the manifest; a change of the archive's layout or of a row's meaning moves it. */
export const exportFormatVersion = 1;

/** A section as the manifest and the README describe it. */
export interface SectionSummary {
  name: string;
  file: string;
  description: string;
  rows: number;
  /** Files the section added beside its rows (e.g. media originals); missing ones included. */
  files: number;
}

/** One entry of the archive: its uncompressed size and SHA-256, or `missing` when it could not be read. */
export type FileSummary = { path: string; size: number; sha256: string } | { path: string; missing: true };

export interface ArchiveInput {
  userId: string;
  sections: readonly ExportSection[];
  generatedAt: Date;
  /** README.txt, from the sections' names and descriptions (written first, before any row is read). */
  readme: string;
  signal: AbortSignal;
}

export interface Archive {
  /** The ZIP's bytes. */
  stream: Readable;
  /** Settles once every entry was written (or the export failed or was aborted). */
  done: Promise<SectionSummary[]>;
}

/** Rows as JSON: times as RFC 3339 UTC, 64-bit integers (amounts in minor units) as strings. */
function exportValue(this: Record<string, unknown>, key: string, value: unknown): unknown {
  const raw = this[key];
  if (raw instanceof Date) return formatTimestamp(raw);
  if (typeof value === 'bigint') return value.toString();
  return value;
}

/** A section's rows as one JSON array, a row a line, pulled one at a time. */
async function* jsonArray(rows: AsyncIterable<Record<string, unknown>>, counted: () => void): AsyncGenerator<string> {
  let first = true;
  yield '[';
  for await (const row of rows) {
    counted();
    yield `${first ? '\n' : ',\n'}${JSON.stringify(row, exportValue)}`;
    first = false;
  }
  yield first ? ']\n' : '\n]\n';
}

/**
 * yazl keeps every entry until the end (for the central directory) with the function that gave its
 * stream: built here, that function holds nothing but the stream, and lets go of it once handed over,
 * so a finished entry keeps neither its stream nor its digest for the rest of the export.
 */
function handOverOnce(stream: Readable): (give: (error: null, stream: Readable) => void) => void {
  let held: Readable | null = stream;
  return (give) => {
    const handed = held;
    if (handed === null) throw new Error('an entry stream is handed over once');
    held = null;
    give(null, handed);
  };
}

/** Adds one entry and resolves once yazl has consumed all of it, with its size and digest. */
async function addEntry(
  zip: ZipFile,
  path: string,
  source: NodeJS.ReadableStream,
  options: { mtime: Date; compress: boolean },
  signal: AbortSignal,
): Promise<{ size: number; sha256: string }> {
  const hash = createHash('sha256');
  let size = 0;
  const meter = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      hash.update(chunk);
      size += chunk.length;
      callback(null, chunk);
    },
  });
  zip.addReadStreamLazy(path, options, handOverOnce(meter));
  // A source that fails, or the client going away (the signal), destroys the meter: `finished` rejects.
  const piped = pipeline(source as Readable, meter, { signal, end: true });
  piped.catch(() => undefined);
  await finished(meter);
  await piped;
  return { size, sha256: hash.digest('hex') };
}

/** The list of files, on disk while the archive is written (a line of JSON each). */
class FileList {
  readonly #dir: string;
  readonly #out: WriteStream;

  private constructor(dir: string) {
    this.#dir = dir;
    this.#out = createWriteStream(join(dir, 'files.jsonl'));
  }

  static async create(): Promise<FileList> {
    return new FileList(await mkdtemp(join(tmpdir(), 'tms-export-')));
  }

  async add(file: FileSummary): Promise<void> {
    if (!this.#out.write(`${JSON.stringify(file)}\n`)) await once(this.#out, 'drain');
  }

  async close(): Promise<void> {
    this.#out.end();
    await finished(this.#out);
  }

  async *lines(): AsyncGenerator<string> {
    const input = createReadStream(join(this.#dir, 'files.jsonl'), { encoding: 'utf8' });
    try {
      for await (const line of createInterface({ input, crlfDelay: Number.POSITIVE_INFINITY })) {
        if (line !== '') yield line;
      }
    } finally {
      input.destroy();
    }
  }

  async remove(): Promise<void> {
    // After a failure the list may still be writing: let it finish rather than fail a pending write.
    if (!this.#out.writableEnded) this.#out.end();
    await finished(this.#out).catch(() => undefined);
    await rm(this.#dir, { recursive: true, force: true });
  }
}

async function* manifestText(input: ArchiveInput, sections: SectionSummary[], files: FileList): AsyncGenerator<string> {
  yield `{\n  "formatVersion": ${exportFormatVersion},\n  "generatedAt": ${JSON.stringify(formatTimestamp(input.generatedAt))},\n`;
  yield `  "userId": ${JSON.stringify(input.userId)},\n  "sections": [\n`;
  yield sections.map((section) => `    ${JSON.stringify(section)}`).join(',\n');
  yield '\n  ],\n  "files": [\n';
  let first = true;
  for await (const line of files.lines()) {
    yield `${first ? '' : ',\n'}    ${line}`;
    first = false;
  }
  yield '\n  ]\n}\n';
}

async function writeEntries(zip: ZipFile, input: ArchiveInput, files: FileList): Promise<SectionSummary[]> {
  const { signal, userId } = input;
  const mtime = input.generatedAt;
  const readme = Buffer.from(input.readme);
  const readmeInfo = await addEntry(zip, 'README.txt', Readable.from([readme]), { mtime, compress: true }, signal);
  await files.add({ path: 'README.txt', ...readmeInfo });
  const summaries: SectionSummary[] = [];
  for (const section of input.sections) {
    const summary: SectionSummary = {
      name: section.name,
      file: `${section.name}.json`,
      description: section.description,
      rows: 0,
      files: 0,
    };
    const rows = Readable.from(
      jsonArray(section.rows(userId), () => {
        summary.rows += 1;
      }),
    );
    await files.add({
      path: summary.file,
      ...(await addEntry(zip, summary.file, rows, { mtime, compress: true }, signal)),
    });
    for await (const file of section.files?.(userId) ?? []) {
      signal.throwIfAborted();
      summary.files += 1;
      let source: NodeJS.ReadableStream;
      try {
        source = await file.open();
      } catch {
        // A file storage lost stays listed as missing rather than failing the whole export.
        await files.add({ path: file.path, missing: true });
        continue;
      }
      // Originals (JPEG, WebP…) are compressed already: stored as they are.
      await files.add({
        path: file.path,
        ...(await addEntry(zip, file.path, source, { mtime, compress: false }, signal)),
      });
    }
    summaries.push(summary);
  }
  await files.close();
  const manifest = Readable.from(manifestText(input, summaries, files));
  await addEntry(zip, 'manifest.json', manifest, { mtime, compress: true }, signal);
  zip.end();
  return summaries;
}

export function exportArchive(input: ArchiveInput): Archive {
  const zip = new ZipFile();
  const stream = zip.outputStream as Readable;
  const done = (async () => {
    const files = await FileList.create();
    try {
      return await writeEntries(zip, input, files);
    } finally {
      await files.remove();
    }
  })();
  // A failed export ends the response abruptly: the client sees a broken transfer, not a short archive.
  done.catch((error: unknown) => stream.destroy(error instanceof Error ? error : new Error(String(error))));
  return { stream, done };
}
