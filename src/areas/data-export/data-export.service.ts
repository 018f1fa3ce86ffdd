/**
 * GET /api/users/me/export: the archive of everything the service keeps about the caller, made from
 * the sections areas registered (platform.exports), under the user's export lease.
 */

import { PassThrough, type Readable } from 'node:stream';
import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../../platform/clock.ts';
import type { ExportRegistry } from '../../platform/exports/export-registry.ts';
import { formatTimestamp } from '../../platform/http/time.ts';
import { type Locale, translate } from '../../platform/i18n/i18n.ts';
import { exportArchive } from './export-archive.ts';
import type { ExportLeases } from './export-leases.ts';

export interface StartedExport {
  stream: Readable;
  fileName: string;
}

export interface DataExportServiceDeps {
  registry: ExportRegistry;
  leases: ExportLeases;
  clock: Clock;
  logger: FastifyBaseLogger;
}

export class DataExportService {
  readonly #deps: DataExportServiceDeps;

  constructor(deps: DataExportServiceDeps) {
    this.#deps = deps;
  }

  /**
   * Takes the user's lease (409 exportInProgress otherwise) and starts the archive; the lease is
   * released once the stream has ended, or failed, or the client went away.
   */
  async start(userId: string, locale: Locale): Promise<StartedExport> {
    const lease = await this.#deps.leases.take(userId);
    const generatedAt = this.#deps.clock.now();
    const sections = this.#deps.registry.sections();
    const aborted = new AbortController();
    const { stream, done } = exportArchive({
      userId,
      sections,
      generatedAt,
      readme: readme(locale, generatedAt, sections),
      signal: aborted.signal,
    });
    // The archive reaches the client through `body`, whose end waits for the lease's release: once a
    // client has the whole archive, its next export is not refused.
    const body = new PassThrough();
    stream.pipe(body, { end: false });
    let settled = false;
    const settle = async (error: Error | null) => {
      if (settled) return;
      settled = true;
      if (error !== null) aborted.abort();
      await lease.release();
      if (error === null) body.end();
      else body.destroy(error);
    };
    stream.once('end', () => void settle(null));
    stream.once('error', (error) => void settle(error));
    stream.once('close', () => void settle(new Error('the archive stream closed early')));
    // The client going away (the response destroys `body`) stops the export.
    let clientLeft = false;
    body.once('close', () => {
      if (body.writableFinished) return;
      clientLeft = true;
      aborted.abort();
    });
    done.catch((error: unknown) => {
      if (!clientLeft) {
        this.#deps.logger.error({ event: 'dataExport.failed', userId, err: error }, 'a data export failed');
      }
    });
    return { stream: body, fileName: `travel-media-export-${generatedAt.toISOString().slice(0, 10)}.zip` };
  }
}

function readme(locale: Locale, generatedAt: Date, sections: readonly { name: string; description: string }[]): string {
  const t = (key: string, values?: Record<string, unknown>) => translate(locale, `dataExport.readme.${key}`, values);
  return [
    t('title'),
    '',
    t('intro', { generatedAt: formatTimestamp(generatedAt) }),
    '',
    t('manifest'),
    '',
    t('sections'),
    ...sections.map((section) => `- ${section.name}.json: ${section.description}`),
    '',
    t('files'),
    t('secrets'),
    '',
  ].join('\n');
}
