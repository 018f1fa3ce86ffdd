/**
 * POST /admin/media/backfill-geo: gives every positioned media never geocoded its city and country
 * (geography's nearestCity), a batch per transaction, so an interrupted run keeps what it did and the
 * next one resumes. Media found at sea are marked too (geocoded_at), so a second run examines nothing.
 */
import type { AuditLog } from '../../../platform/audit/audit-log.ts';
import type { Clock } from '../../../platform/clock.ts';
import type { Transactions } from '../../../platform/db/transactions.ts';
import type { EventBus } from '../../../platform/events/domain-events.ts';
import type { GeographyService } from '../../geography/public.ts';
import type { GeoBackfillRepository } from './geo-backfill.repository.ts';

export const geoBackfillBatchSize = 200;

export interface GeoBackfillReport {
  /** Positioned media looked at (never geocoded before). */
  examined: number;
  /** Of those, media given a city and country. */
  located: number;
  /** Of those, media with no city within the radius (at sea, or far from any town). */
  notLocated: number;
  batches: number;
}

export class GeoBackfillService {
  private readonly transactions: Transactions;
  private readonly audit: AuditLog;
  private readonly repository: GeoBackfillRepository;
  private readonly geography: GeographyService;
  private readonly clock: Clock;
  private readonly events: EventBus;

  constructor(
    transactions: Transactions,
    audit: AuditLog,
    repository: GeoBackfillRepository,
    geography: GeographyService,
    clock: Clock,
    events: EventBus,
  ) {
    this.transactions = transactions;
    this.audit = audit;
    this.repository = repository;
    this.geography = geography;
    this.clock = clock;
    this.events = events;
  }

  async run(batchSize = geoBackfillBatchSize): Promise<GeoBackfillReport> {
    const report: GeoBackfillReport = { examined: 0, located: 0, notLocated: 0, batches: 0 };
    for (;;) {
      const done = await this.transactions.run(async () => {
        const pending = await this.repository.pending(batchSize);
        const at = this.clock.now();
        for (const position of pending) {
          const city = await this.geography.nearestCity(position.latitude, position.longitude);
          const row = await this.repository.setPlace(
            position.id,
            city && { cityId: city.id, countryCode: city.countryCode },
            at,
          );
          if (city === null) report.notLocated += 1;
          else {
            report.located += 1;
            await this.events.publish('media.changed', { media: row });
          }
        }
        report.examined += pending.length;
        if (pending.length > 0) report.batches += 1;
        return pending.length < batchSize;
      });
      if (done) break;
    }
    await this.transactions.run(() =>
      this.audit.record({
        actor: 'admin',
        action: 'media.backfillGeo',
        targetType: 'job',
        targetId: 'backfill-geo',
        payload: { ...report },
      }),
    );
    return report;
  }
}
