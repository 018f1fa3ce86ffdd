import { timestamp } from 'drizzle-orm/pg-core';

/** A timestamptz column read and written as a JS Date (millisecond precision, from the injected clock). */
export const timestamptz = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });
