/** The maintenance row: one prepared single-row read (each instance makes it at most once a second) and its update. */
import { eq } from 'drizzle-orm';
import type { DbSource } from '../db/database.ts';
import { PreparedRead } from '../db/prepared-reads.ts';
import { returned } from '../db/returned.ts';
import { maintenanceState } from './tables.ts';

export interface MaintenanceSettings {
  enabled: boolean;
  /** The operator's words, shown as the error's detail; null for none. */
  message: string | null;
  retryAfterSeconds: number;
  /** When an operator last set it; null before the first time. */
  updatedAt: Date | null;
}

const columns = {
  enabled: maintenanceState.enabled,
  message: maintenanceState.message,
  retryAfterSeconds: maintenanceState.retryAfterSeconds,
  updatedAt: maintenanceState.updatedAt,
};

export class MaintenanceRepository {
  private readonly source: DbSource;
  readonly #read: PreparedRead<MaintenanceSettings>;

  constructor(source: DbSource) {
    this.source = source;
    this.#read = new PreparedRead(source, 'platform.maintenance', (db) =>
      db.select(columns).from(maintenanceState).where(eq(maintenanceState.id, true)),
    );
  }

  async read(): Promise<MaintenanceSettings> {
    const [row] = await this.#read.run({});
    // The migration inserts the row; a missing one (never expected) reads as "off".
    return row ?? { enabled: false, message: null, retryAfterSeconds: 300, updatedAt: null };
  }

  async write(settings: MaintenanceSettings): Promise<MaintenanceSettings> {
    const [row] = await this.source.db
      .insert(maintenanceState)
      .values({ id: true, ...settings })
      .onConflictDoUpdate({ target: maintenanceState.id, set: settings })
      .returning(columns);
    return returned(row, 'maintenance_state.write');
  }
}
