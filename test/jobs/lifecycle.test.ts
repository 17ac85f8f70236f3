import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineJob } from '../../src/jobs/job-kind.ts';
import { runOnce } from '../../src/jobs/run-once.ts';
import { eventually, openJobsHarness, type JobsHarness } from './harness.ts';

let h: JobsHarness;
beforeEach(async () => {
  h = await openJobsHarness();
});
afterEach(async () => {
  await h.close();
});

function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { open, opened };
}

function blockingKind(name: string, release: Promise<void>, started: () => void) {
  return defineJob({
    name,
    payload: z.object({}),
    retry: { limit: 2, delaySeconds: 0, backoff: false },
    handler: async (_payload, job) => {
      started();
      await new Promise<void>((resolve, reject) => {
        void release.then(resolve);
        job.signal.addEventListener('abort', () => reject(job.signal.reason));
      });
    },
  });
}

describe('job worker shutdown', () => {
  it('stops taking jobs and lets the running one finish', async () => {
    const release = gate();
    const running = gate();
    const kind = blockingKind('test.graceful', release.opened, running.open);
    const jobs = await h.start([kind]);
    const first = await jobs.enqueue(kind, {});
    await running.opened;
    const stopped = jobs.stop({ timeoutMs: 60_000 });
    const second = await jobs.enqueue(kind, {});
    release.open();
    await stopped;
    const reader = await h.start([kind], { work: false });
    expect((await reader.getJob(kind, first as string))?.state).toBe('completed');
    expect((await reader.getJob(kind, second as string))?.state).toBe('created');
  });

  it('aborts a job still running when the stop timeout passes and queues its retry', async () => {
    const running = gate();
    const kind = blockingKind('test.cut', new Promise(() => {}), running.open);
    const jobs = await h.start([kind]);
    const id = await jobs.enqueue(kind, {});
    await running.opened;
    await jobs.stop({ timeoutMs: 100 });
    const reader = await h.start([kind], { work: false });
    const job = await reader.getJob(kind, id as string);
    expect(job?.state).toBe('retry');
    expect(job?.output).toEqual({ message: 'worker shut down while the job was running' });
  });
});

describe('runOnce', () => {
  it('runs a step once per key and returns the stored result on repeats', async () => {
    await h.db.sql`create table once_log (n int)`;
    let calls = 0;
    const step = () =>
      h.db.sql.begin((tx) =>
        runOnce(tx, 'job:x:send', async (t) => {
          calls += 1;
          await t`insert into once_log values (1)`;
          return { messageId: 'm-1' };
        }),
      );
    expect(await step()).toEqual({ ran: true, result: { messageId: 'm-1' } });
    expect(await step()).toEqual({ ran: false, result: { messageId: 'm-1' } });
    expect(calls).toBe(1);
    expect(await h.db.sql`select count(*)::int as n from once_log`).toEqual([{ n: 1 }]);
  });

  it('leaves no checkpoint when the step fails, so a retry runs it again', async () => {
    const failing = h.db.sql.begin((tx) =>
      runOnce(tx, 'job:y:step', async () => Promise.reject(new Error('provider down'))),
    );
    await expect(failing).rejects.toThrow('provider down');
    const retried = await h.db.sql.begin((tx) => runOnce(tx, 'job:y:step', async () => 'ok'));
    expect(retried).toEqual({ ran: true, result: 'ok' });
  });

  it('runs checkpointed steps of a job through JobContext.once', async () => {
    const results: string[] = [];
    const kind = defineJob({
      name: 'test.once',
      payload: z.object({}),
      handler: async (_payload, job) => {
        results.push(await job.once('a', async () => 'first'));
        results.push(await job.once('a', async () => 'second'));
      },
    });
    const jobs = await h.start([kind]);
    const id = await jobs.enqueue(kind, {});
    await eventually(
      () => jobs.getJob(kind, id as string),
      (job) => job?.state === 'completed',
    );
    expect(results).toEqual(['first', 'first']);
    const rows = await h.db.sql`select key from job_effects`;
    expect(rows).toEqual([{ key: `job:${id}:a` }]);
  });
});
