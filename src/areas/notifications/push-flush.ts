/**
 * The push flush (job `notifications-push`): for each recipient with rows whose pushed_at is null,
 * one individual push for one row or one digest push for two or more; rows of a kind whose push
 * channel is off get pushed_at without a push. Recipients are walked in id order in bounded batches,
 * so memory stays flat however many there are. A provider failure for one recipient is logged
 * (`pushprovider.pushFailed`) and the loop goes on; a retryable one leaves the rows for the next run
 * under the same idempotency key, so the provider never shows a push twice.
 */
import type { FastifyBaseLogger } from 'fastify';
import { type PushMessage, type PushProvider, pushIdempotencyKey } from '../../adapters/push/index.ts';
import type { Clock } from '../../platform/clock.ts';
import { toHex } from '../../platform/http/ids.ts';
import { type Locale, languageOf, supportedLocales } from '../../platform/i18n/i18n.ts';
import type { NotificationsRepository } from './notifications.repository.ts';
import { preferenceMatrix } from './preference-patch.ts';
import { renderDigest, renderNotification } from './render.ts';
import type { NotificationRow } from './tables.ts';

export interface PushFlushReport {
  [field: string]: number;
  recipients: number;
  individual: number;
  digest: number;
  /** Rows marked pushed without a push, because their kind's push channel is off. */
  suppressed: number;
  failed: number;
}

export interface PushFlushLimits {
  /** Recipients read per batch. */
  recipientBatch: number;
  /** Row ids read (and marked) per statement for one recipient; all of them go into one push. */
  rowsPerQuery: number;
}

export const defaultPushFlushLimits: PushFlushLimits = { recipientBatch: 500, rowsPerQuery: 1000 };

/** Texts in every supported language, keyed by language code as push providers expect. */
function inEveryLanguage(render: (locale: Locale) => { title: string; body: string }) {
  const headings: Record<string, string> = {};
  const contents: Record<string, string> = {};
  for (const locale of supportedLocales) {
    const { title, body } = render(locale);
    headings[languageOf(locale)] = title;
    contents[languageOf(locale)] = body;
  }
  return { headings, contents };
}

/** One individual push for a single row (give the row), or one digest push counting `ids`. */
export function pushMessageFor(recipientId: string, ids: string[], only: NotificationRow | null): PushMessage {
  const externalId = toHex(recipientId);
  const idempotencyKey = pushIdempotencyKey(externalId, ids);
  if (ids.length === 1 && only) {
    return {
      externalId,
      idempotencyKey,
      ...inEveryLanguage((locale) => renderNotification(only.type, only.data, locale)),
      data: { notificationId: only.id, type: only.type },
    };
  }
  return {
    externalId,
    idempotencyKey,
    ...inEveryLanguage((locale) => renderDigest(ids.length, locale)),
    data: { type: 'digest', count: ids.length },
    collapseId: `digest-${externalId}`,
  };
}

export class PushFlush {
  private readonly repository: NotificationsRepository;
  private readonly push: PushProvider;
  private readonly clock: Clock;
  private readonly logger: FastifyBaseLogger;
  private readonly limits: PushFlushLimits;

  constructor(
    repository: NotificationsRepository,
    push: PushProvider,
    clock: Clock,
    logger: FastifyBaseLogger,
    limits: PushFlushLimits = defaultPushFlushLimits,
  ) {
    this.repository = repository;
    this.push = push;
    this.clock = clock;
    this.logger = logger;
    this.limits = limits;
  }

  async run(): Promise<PushFlushReport> {
    const report: PushFlushReport = { recipients: 0, individual: 0, digest: 0, suppressed: 0, failed: 0 };
    let after: string | null = null;
    for (;;) {
      const recipients = await this.repository.recipientsToPush(after, this.limits.recipientBatch);
      for (const recipientId of recipients) await this.#flushRecipient(recipientId, report);
      if (recipients.length < this.limits.recipientBatch) return report;
      after = recipients.at(-1) ?? null;
    }
  }

  async #flushRecipient(recipientId: string, report: PushFlushReport): Promise<void> {
    const rows = await this.repository.unpushedRefsOf(recipientId, this.limits.rowsPerQuery);
    if (rows.length === 0) return;
    report.recipients++;
    const matrix = preferenceMatrix(await this.repository.preferenceOverrides(recipientId));
    const toSend = rows.filter((row) => matrix[row.type]?.push !== false).map((row) => row.id);
    const suppressed = rows.filter((row) => matrix[row.type]?.push === false).map((row) => row.id);
    report.suppressed += suppressed.length;
    await this.repository.markPushed(suppressed, this.clock.now(), this.limits.rowsPerQuery);
    if (toSend.length === 0) return;

    const only = toSend.length === 1 ? await this.repository.findById(toSend[0]!) : null;
    if (toSend.length === 1 && only === null) return; // deleted meanwhile: nothing left to push
    const message = pushMessageFor(recipientId, toSend, only);
    const result = await this.push.send(message);
    if (!result.delivered) {
      report.failed++;
      this.logger.warn(
        {
          event: 'pushprovider.pushFailed',
          externalId: message.externalId,
          reason: result.reason,
          retryable: result.retryable,
          rows: toSend.length,
        },
        'push failed',
      );
      // A retryable failure leaves the rows for the next run; a permanent one (no device, bad request) gives up on them.
      if (result.retryable) return;
    } else if (toSend.length === 1) {
      report.individual++;
    } else {
      report.digest++;
    }
    await this.repository.markPushed(toSend, this.clock.now(), this.limits.rowsPerQuery);
  }
}
