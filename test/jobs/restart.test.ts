// A restart writes only what changed: queues and schedules are read once at start, and a queue whose policy or
// a schedule whose cron, time zone or payload is unchanged is left as stored (its updated_on stays).
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineJob, type JobKind } from '../../src/jobs/job-kind.ts';
import type { Jobs } from '../../src/jobs/jobs.ts';
import { openJobsHarness, type JobsHarness } from './harness.ts';

let h: JobsHarness;

const kindWith = (retryLimit: number) =>
  defineJob({
    name: 'test.restart',
    payload: z.object({ n: z.number() }),
    retry: { limit: retryLimit, delaySeconds: 1, backoff: false },
    handler: async () => {},
  });

async function restart(previous: Jobs, kind: JobKind): Promise<Jobs> {
  await previous.stop({ timeoutMs: 1000 });
  return h.start([kind], { work: false });
}

interface QueueRow {
  retry_limit: number;
  updated_on: Date;
}
interface ScheduleRow {
  cron: string;
  data: unknown;
  timezone: string;
  updated_on: Date;
}

const queueRow = async () =>
  (
    await h.db.sql.unsafe<QueueRow[]>(
      `select retry_limit, updated_on from ${h.bossSchema}.queue where name = 'test.restart'`,
    )
  )[0];

const scheduleRow = async () =>
  (await h.db.sql.unsafe<ScheduleRow[]>(`select cron, data, timezone, updated_on from ${h.bossSchema}.schedule`))[0];

describe('jobs start', () => {
  beforeEach(async () => {
    h = await openJobsHarness();
  });
  afterEach(async () => {
    await h.close();
  });

  it('applies a changed queue policy at the next start and leaves an unchanged one as stored', async () => {
    const first = await h.start([kindWith(2)], { work: false });
    const created = await queueRow();
    expect(created.retry_limit).toBe(2);

    const same = await restart(first, kindWith(2));
    expect(await queueRow()).toEqual(created);

    await restart(same, kindWith(5));
    const changed = await queueRow();
    expect(changed.retry_limit).toBe(5);
    expect(changed.updated_on.getTime()).toBeGreaterThan(created.updated_on.getTime());
  });

  it('rewrites a schedule at a restart only when its cron, time zone or payload changed', async () => {
    const kind = kindWith(2);
    const first = await h.start([kind], { work: false });
    await first.schedule(kind, '*/5 * * * *', { n: 1 });
    const stored = await scheduleRow();

    const second = await restart(first, kind);
    await second.schedule(kind, '*/5 * * * *', { n: 1 });
    expect(await scheduleRow()).toEqual(stored);

    const third = await restart(second, kind);
    await third.schedule(kind, '*/5 * * * *', { n: 2 });
    expect(await scheduleRow()).toMatchObject({ cron: '*/5 * * * *', data: { n: 2 } });
    await third.schedule(kind, '*/5 * * * *', { n: 2 }, { tz: 'Europe/Paris' });
    expect((await scheduleRow()).timezone).toBe('Europe/Paris');
    await third.schedule(kind, '0 4 * * *', { n: 2 }, { tz: 'Europe/Paris' });
    expect((await scheduleRow()).cron).toBe('0 4 * * *');
  });
});
