import { customType, timestamp } from 'drizzle-orm/pg-core';

/** A timestamptz column read and written as a JS Date (millisecond precision, from the injected clock). */
export const timestamptz = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/** A case-insensitive text column (the `citext` extension), read and written as a string. */
export const citext = customType<{ data: string }>({ dataType: () => 'citext' });

/** A point on the earth (earthdistance's `cube`), read as PostgreSQL writes it; only SQL uses it. */
export const earthPoint = customType<{ data: string; driverData: string }>({ dataType: () => 'cube' });
