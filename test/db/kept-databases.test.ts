// The test helper's databases: a closed one goes to the next call of the same process emptied, and only while its
// structure is as it was made (test/helpers/kept-databases.ts).
import { describe, expect, it } from 'vitest';
import type { Database } from '../../src/db/connection.ts';
import { createTestApp } from '../helpers/app.ts';
import { createTestDatabase } from '../helpers/db.ts';

// Which database this is: the private schema on PostgreSQL, the PGlite instance (its start) embedded.
async function identity(db: Database): Promise<string> {
  const [row] = await db.sql<{ id: string }[]>`
    select case when ${db.kind} = 'postgres' then current_schema()::text else pg_postmaster_start_time()::text end as id`;
  return row.id;
}

async function addUser(db: Database, id: string): Promise<void> {
  await db.sql`insert into users (id, email, password_hash, name) values (${id}, ${`${id}@example.com`}, 'x', 'Kept')`;
}

describe('test databases kept for the next call', () => {
  it('hands a closed database to the next call with no rows left but the applied migrations', async () => {
    const first = await createTestDatabase();
    const id = await identity(first);
    const migrations = await first.sql`select name from schema_migrations order by name`;
    await addUser(first, 'usr_kept_1');
    await first.close();

    const second = await createTestDatabase();
    try {
      expect(await identity(second)).toBe(id);
      expect(await second.sql`select id from users`).toEqual([]);
      expect(await second.sql`select name from schema_migrations order by name`).toEqual(migrations);
      await addUser(second, 'usr_kept_1');
    } finally {
      await second.close();
    }
  });

  it('builds a new database instead of handing on one whose tables a test changed', async () => {
    const first = await createTestDatabase();
    const id = await identity(first);
    await first.sql`alter table users add column nickname text`;
    await first.close();

    const second = await createTestDatabase();
    try {
      expect(await identity(second)).not.toBe(id);
      const columns = await second.sql`
        select column_name from information_schema.columns where table_schema = current_schema() and table_name = 'users'`;
      expect(columns.map((c) => c.column_name)).not.toContain('nickname');
    } finally {
      await second.close();
    }
  });

  it('builds a new database instead of handing on one that holds a function a test created', async () => {
    const first = await createTestDatabase();
    const id = await identity(first);
    await first.sql`create function kept_probe() returns int language sql as 'select 1'`;
    await first.close();

    const second = await createTestDatabase();
    try {
      expect(await identity(second)).not.toBe(id);
    } finally {
      await second.close();
    }
  });

  it('hands on two databases held at once separately, each emptied', async () => {
    const [a, b] = await Promise.all([createTestDatabase(), createTestDatabase()]);
    expect(await identity(a)).not.toBe(await identity(b));
    await addUser(a, 'usr_kept_a');
    await addUser(b, 'usr_kept_b');
    await Promise.all([a.close(), b.close()]);

    const [c, d] = await Promise.all([createTestDatabase(), createTestDatabase()]);
    try {
      for (const db of [c, d]) expect(await db.sql`select id from users`).toEqual([]);
    } finally {
      await Promise.all([c.close(), d.close()]);
    }
  });

  it('starts the sequences of a kept database again from their first value', async () => {
    const first = await createTestDatabase();
    const sequences = await first.sql<{ name: string }[]>`
      select format('%I.%I', schemaname, sequencename) as name from pg_sequences where schemaname = current_schema()`;
    if (sequences.length === 0) return void (await first.close());
    const name = sequences[0].name;
    const [{ start }] = await first.sql<{ start: string }[]>`select nextval(${name}::regclass)::text as start`;
    await first.sql`select nextval(${name}::regclass)`;
    await first.close();

    const second = await createTestDatabase();
    try {
      expect((await second.sql<{ next: string }[]>`select nextval(${name}::regclass)::text as next`)[0].next).toBe(
        start,
      );
    } finally {
      await second.close();
    }
  });
});

describe('embedded test databases kept for the next call', () => {
  it.skipIf(process.env.DATABASE_URL)('drops the schemas a test added, and forgets the settings it made', async () => {
    const first = await createTestDatabase();
    const id = await identity(first);
    await first.sql`create schema kept_jobs`;
    await first.sql`create table kept_jobs.job (id int)`;
    await first.sql`set statement_timeout = 12345`;
    await first.close();

    const second = await createTestDatabase();
    try {
      expect(await identity(second)).toBe(id);
      expect(await second.sql`select 1 from pg_namespace where nspname = 'kept_jobs'`).toEqual([]);
      expect((await second.sql`show statement_timeout`)[0].statement_timeout).toBe('0');
    } finally {
      await second.close();
    }
  });
});

describe('the job queue of a kept test database', () => {
  it('hands the next app the pg-boss schema of the last, its queues kept and its jobs gone', async () => {
    const first = await createTestApp({ jobs: 'enqueue' });
    const schema = first.jobsSchema as string;
    const [queue] = await first.db.sql<{ name: string }[]>`select name from ${first.db.sql(schema)}.queue limit 1`;
    await first.db.sql`insert into ${first.db.sql(schema)}.job (name, data) values (${queue.name}, '{}')`;
    const schedules = await first.db.sql`select name, cron from ${first.db.sql(schema)}.schedule order by name`;
    expect(schedules.length).toBeGreaterThan(0);
    await first.close();

    const second = await createTestApp({ jobs: 'enqueue' });
    try {
      expect(second.jobsSchema).toBe(schema);
      expect(await second.db.sql`select id from ${second.db.sql(schema)}.job`).toEqual([]);
      // The start wrote the schedules again, into a table the close had emptied.
      expect(await second.db.sql`select name, cron from ${second.db.sql(schema)}.schedule order by name`).toEqual(
        schedules,
      );
    } finally {
      await second.close();
    }
  });
});
