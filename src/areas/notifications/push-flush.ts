/**
 * The push flush (job `notifications-push`): for each recipient with rows whose pushed_at is null,
 * one individual push for one row or one digest push for two or more; rows of a kind whose push
 * channel is off get pushed_at without a push. Recipients are walked in id order in bounded batches,
 * so memory stays flat however many there are.
 *
 * Idempotent in the database: the rows of a recipient are claimed by one conditional update before
 * the push (a lease of `pushClaimLeaseMs`), so two instances flushing at once, or a job the queue
 * delivers twice, never push a row twice; no transaction stays open across the provider's HTTP call.
 * A provider failure is logged (`pushprovider.pushFailed`) and the loop goes on: a retryable one
 * gives the rows back for the next run, under the same idempotency key; a 400 keeps them for one more
 * flush, then gives up on them; any other permanent failure gives up at once.
 *
 * With Web Push (PUSH_PROVIDER names webpush), the same push also goes to each browser subscription
 * of the recipient (web-push-delivery.ts), which records what each accepted under the push's
 * idempotency key: when either channel fails retryably the rows go back, and the next run sends only
 * what is missing (OneSignal drops the repeated key, the browsers that have it are skipped).
 */
import type { FastifyBaseLogger } from 'fastify';
import { type PushMessage, type PushProvider, pushIdempotencyKey } from '../../adapters/push/index.ts';
import type { Clock } from '../../platform/clock.ts';
import { type Locale, languageOf, supportedLocales } from '../../platform/i18n/i18n.ts';
import { toHex } from '../../platform/ids/ids.ts';
import type { NotificationsRepository } from './notifications.repository.ts';
import { preferenceMatrix } from './preference-patch.ts';
import { renderDigest, renderNotification } from './render.ts';
import type { NotificationRow } from './tables.ts';
import type { WebPushDelivery } from './web-push-delivery.ts';

export interface PushFlushReport {
  [field: string]: number;
  recipients: number;
  individual: number;
  digest: number;
  /** Rows marked pushed without a push, because their kind's push channel is off. */
  suppressed: number;
  failed: number;
  /** Pushes that failed in a way worth retrying; the job fails so the queue retries it with backoff. */
  retryLater: number;
  // With Web Push, also webPushSent (browser subscriptions that accepted a push) and webPushGone
  // (subscriptions deleted because their push service answered 404 or 410).
}

/** How long a flush holds the rows it claimed: longer than a push with its retries can take. */
export const pushClaimLeaseMs = 10 * 60_000;

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

export interface PushFlushDeps {
  repository: NotificationsRepository;
  /** OneSignal or the log provider; null when PUSH_PROVIDER names webpush alone. */
  push: PushProvider | null;
  /** Null unless PUSH_PROVIDER names webpush. */
  webPush?: WebPushDelivery | null;
  clock: Clock;
  logger: FastifyBaseLogger;
  /** Batch sizes (default defaultPushFlushLimits). */
  limits?: PushFlushLimits;
}

export class PushFlush {
  readonly #deps: PushFlushDeps;
  readonly #limits: PushFlushLimits;

  constructor(deps: PushFlushDeps) {
    this.#deps = deps;
    this.#limits = deps.limits ?? defaultPushFlushLimits;
  }

  async run(): Promise<PushFlushReport> {
    const report: PushFlushReport = {
      recipients: 0,
      individual: 0,
      digest: 0,
      suppressed: 0,
      failed: 0,
      retryLater: 0,
      ...(this.#deps.webPush ? { webPushSent: 0, webPushGone: 0 } : {}),
    };
    await this.#deps.webPush?.forgetOldDeliveries();
    let after: string | null = null;
    for (;;) {
      const recipients = await this.#deps.repository.recipientsToPush(
        after,
        this.#limits.recipientBatch,
        this.#deps.clock.now(),
      );
      for (const recipientId of recipients) await this.#flushRecipient(recipientId, report);
      if (recipients.length < this.#limits.recipientBatch) return report;
      after = recipients.at(-1) ?? null;
    }
  }

  async #flushRecipient(recipientId: string, report: PushFlushReport): Promise<void> {
    const now = this.#deps.clock.now();
    const claimed = await this.#deps.repository.claimUnpushed(
      recipientId,
      now,
      new Date(now.getTime() + pushClaimLeaseMs),
    );
    if (claimed.length === 0) return; // another flush holds them, or pushed them meanwhile
    report.recipients++;
    const matrix = preferenceMatrix(await this.#deps.repository.preferenceOverrides(recipientId));
    const toSend = claimed.filter((row) => matrix[row.type]?.push !== false);
    const suppressed = claimed.filter((row) => matrix[row.type]?.push === false).map((row) => row.id);
    report.suppressed += suppressed.length;
    await this.#deps.repository.markPushed(suppressed, now, this.#limits.rowsPerQuery);
    if (toSend.length === 0) return;

    const ids = toSend.map((row) => row.id);
    const single = ids.length === 1 ? ids[0] : undefined;
    const only = single === undefined ? null : await this.#deps.repository.findById(single);
    if (single !== undefined && only === null) return; // deleted meanwhile: nothing left to push
    const message = pushMessageFor(recipientId, ids, only);
    const web = await this.#deps.webPush?.deliver(recipientId, ids, only, message.idempotencyKey);
    if (web) {
      report.webPushSent = (report.webPushSent ?? 0) + web.sent;
      report.webPushGone = (report.webPushGone ?? 0) + web.gone;
    }
    const result = this.#deps.push === null ? ({ delivered: true } as const) : await this.#deps.push.send(message);
    if (result.delivered && web?.retryLater === true) {
      // A browser's push service is down: the rows go back; the next run sends only what is missing.
      report.retryLater++;
      await this.#deps.repository.releaseClaims(ids, false, this.#limits.rowsPerQuery);
      return;
    }
    if (result.delivered) {
      if (ids.length === 1) report.individual++;
      else report.digest++;
      await this.#deps.repository.markPushed(ids, this.#deps.clock.now(), this.#limits.rowsPerQuery);
      return;
    }
    report.failed++;
    this.#deps.logger.warn(
      {
        event: 'pushprovider.pushFailed',
        externalId: message.externalId,
        reason: result.reason,
        retryable: result.retryable,
        rejected: result.rejected === true,
        rows: ids.length,
      },
      'push failed',
    );
    if (result.retryable) {
      report.retryLater++;
      await this.#deps.repository.releaseClaims(ids, false, this.#limits.rowsPerQuery);
      return;
    }
    // A 400 may be ours to fix (a field the provider newly refuses): keep each row for one more flush.
    const keptOnce = result.rejected ? toSend.filter((row) => row.rejections === 0).map((row) => row.id) : [];
    const givenUp = ids.filter((id) => !keptOnce.includes(id));
    await this.#deps.repository.releaseClaims(keptOnce, true, this.#limits.rowsPerQuery);
    await this.#deps.repository.markPushed(givenUp, this.#deps.clock.now(), this.#limits.rowsPerQuery);
  }
}
