/** Seed SQL shared by the benchmarks (generate_series, never the API). */

/** `count` users whose ids are md5('bench-user-' || i)::uuid, for i from 0. */
export const benchUsersSql = (count: number) => `
    INSERT INTO users (id, email, username, nickname, sponsor_code, email_confirmed_at, created_at, updated_at)
    SELECT md5('bench-user-' || i)::uuid, 'bench' || i || '@example.test', 'bench' || i, 'Bench ' || i,
           'B' || lpad(i::text, 7, '0'), timestamptz '2026-01-01', timestamptz '2026-01-01', timestamptz '2026-01-01'
    FROM generate_series(0, ${count - 1}) AS i;`;
