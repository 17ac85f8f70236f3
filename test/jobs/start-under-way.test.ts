// The service answers while its job queue finishes starting, where every queue is stored already (src/main.ts):
// a call outside a transaction then waits for the start, one inside a request's transaction enqueues at once,
// and a stop waits for the start so nothing it started outlives it.
import { afterEach, beforeEach, expect, it, describe } from 'vitest';
import { z } from 'zod';
import { defineJob } from '../../src/jobs/job-kind.ts';
import { eventually, finished, openJobsHarness, type JobsHarness } from './harness.ts';

let h: JobsHarness;
beforeEach(async () => {
  h = await openJobsHarness();
});
afterEach(async () => {
  await h.close();
});

const ran: string[] = [];
const noteKind = (name: string) =>
  defineJob({
    name,
    payload: z.object({ note: z.string() }),
    retry: { limit: 0, delaySeconds: 0, backoff: false },
    handler: async ({ note }) => {
      ran.push(note);
    },
  });

describe('a job queue whose start is under way', () => {
  it('says its queues are missing until a start has stored them, and again once a kind is added', async () => {
    const kind = noteKind('test.early-a');
    expect(await h.make([kind]).queuesExist()).toBe(false);
    await h.start([kind], { work: false });
    expect(await h.make([kind]).queuesExist()).toBe(true);
    expect(await h.make([kind, noteKind('test.early-b')]).queuesExist()).toBe(false);
  });

  it('makes a call outside a transaction wait for the start instead of failing', async () => {
    const kind = noteKind('test.early-wait');
    const jobs = h.make([kind]);
    const starting = jobs.start({ work: true, deps: undefined });
    const id = await jobs.enqueue(kind, { note: 'waited' });
    await starting;
    expect(await eventually(() => jobs.getJob(kind, id as string), finished)).toMatchObject({ state: 'completed' });
    expect(ran).toContain('waited');
  });

  it("lets a request's transaction enqueue at once into a queue that exists, and the job runs", async () => {
    const kind = noteKind('test.early-tx');
    await h.start([kind], { work: false });
    const jobs = h.make([kind]);
    const starting = jobs.start({ work: true, deps: undefined });
    const id = await h.db.sql.begin((tx) => jobs.enqueue(kind, { note: 'in a transaction' }, { tx }));
    await starting;
    expect(await eventually(() => jobs.getJob(kind, id as string), finished)).toMatchObject({ state: 'completed' });
  });

  it('stops after the start has finished, so no worker it started goes on taking jobs', async () => {
    const kind = noteKind('test.early-stop');
    const jobs = h.make([kind]);
    const starting = jobs.start({ work: true, deps: undefined });
    await jobs.stop({ timeoutMs: 1_000 });
    await starting;
    const reader = await h.start([kind], { work: false });
    const id = await reader.enqueue(kind, { note: 'after the stop' });
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect((await reader.getJob(kind, id as string))?.state).toBe('created');
    expect(ran).not.toContain('after the stop');
  });
});
