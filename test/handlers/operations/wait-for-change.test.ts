// The long-poll itself, on the real watch of a real app, with the resource's state held here so that a test
// decides exactly when a change lands relative to the waiter's subscription, its reads and its sleep. "At once"
// means before any timer: the answer is checked after a zero-delay timeout, which runs only after every
// pending promise step; a waiter that sleeps is still waiting then (its re-read timer is far away).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Actor } from '../../../src/handlers/actor.ts';
import { waitForChange, type Watched } from '../../../src/handlers/operations/wait-for-change.ts';
import { createTestApp, type TestApp } from '../../helpers/app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ env: { OPERATION_WAIT_RECHECK_MS: '600000' } });
  await t.deps.resourceWatch.ready();
});
afterAll(async () => t?.close());

let counter = 0;
/** A resource of this test: its state, a read that can do something at a chosen moment, and a caller. */
function resource(state: string) {
  counter += 1;
  const id = `res_${counter}`;
  const actor: Actor = { kind: 'user', workspaceId: 'ws_test', userId: `usr_${counter}`, role: 'owner' };
  const r = {
    id,
    actor,
    state,
    reads: 0,
    /** Runs right after each read (numbered from 1): a change landing between that read and what follows it. */
    afterRead: undefined as ((read: number) => void) | undefined,
    /** A change committed and announced, as the code that changes a resource does. */
    change(next: string) {
      r.state = next;
      t.deps.resourceWatch.changed(id);
    },
    wait(seconds: number, watched: Watched<string> = plain, who = actor, signal?: AbortSignal) {
      return waitForChange(
        t.deps,
        who,
        { id, waitSeconds: seconds, signal },
        async () => {
          r.reads += 1;
          const seen = r.state;
          r.afterRead?.(r.reads);
          return seen;
        },
        watched,
      );
    },
  };
  return r;
}

const plain: Watched<string> = { fingerprint: (s) => s, settled: (s) => s === 'done' };
const withNotice: Watched<string> = { ...plain, notice: (s) => s === 'needs_person' };

/** The answer if the wait has answered before any timer fires, else 'waiting'. */
async function answerNow(wait: Promise<string>): Promise<string> {
  let answer = 'waiting';
  void wait.then((value) => (answer = value));
  await new Promise((resolve) => setTimeout(resolve, 0));
  return answer;
}

describe('waitForChange', () => {
  it("answers at once with a change that landed between the caller's previous answer and this call", async () => {
    const r = resource('running');
    expect(await r.wait(0)).toBe('running');
    r.change('needs_person'); // announced while nobody waits: that wake-up reaches no one
    expect(await answerNow(r.wait(50))).toBe('needs_person');
  });

  it('sleeps while the resource is what the caller was last told, and answers at the next change', async () => {
    const r = resource('running');
    await r.wait(0);
    const waiting = r.wait(50);
    expect(await answerNow(waiting)).toBe('waiting');
    r.change('step_2');
    expect(await waiting).toBe('step_2');
  });

  it('sees a change that lands between its first read and its subscription', async () => {
    const r = resource('running');
    await r.wait(0); // read 1
    // Read 2 is this wait's first; the change is announced before the wait registers for wake-ups.
    r.afterRead = (read) => read === 2 && r.change('step_2');
    expect(await answerNow(r.wait(50))).toBe('step_2');
    expect(r.reads).toBe(3); // read 3, made once registered, has it
  });

  it('wakes on a change that lands after its subscription and its read, before it sleeps', async () => {
    const r = resource('running');
    await r.wait(0);
    r.afterRead = (read) => read === 3 && r.change('step_2');
    expect(await answerNow(r.wait(50))).toBe('step_2');
    expect(r.reads).toBe(4); // woken after read 3, it reads once more
  });

  it('tells a caller it has not answered of a state that needs it at once, and only once', async () => {
    const r = resource('needs_person');
    expect(await answerNow(r.wait(50, withNotice))).toBe('needs_person');
    const again = r.wait(50, withNotice);
    expect(await answerNow(again)).toBe('waiting');
    r.change('running');
    expect(await again).toBe('running');
  });

  it('judges each caller by what it was told itself', async () => {
    const r = resource('running');
    const other: Actor = { ...r.actor, userId: `${r.actor.userId}_other` };
    await r.wait(0, plain, other);
    await r.wait(0);
    r.change('step_2');
    expect(await r.wait(0, plain, other)).toBe('step_2');
    // The other caller's answer is not this one's: it has not seen step_2 yet.
    expect(await answerNow(r.wait(50))).toBe('step_2');
  });

  it('waits from its first read for a caller it does not know, unless the state needs it', async () => {
    const r = resource('running');
    const waiting = r.wait(50, withNotice);
    expect(await answerNow(waiting)).toBe('waiting');
    r.change('step_2');
    expect(await waiting).toBe('step_2');
  });

  it('answers a settled resource at once', async () => {
    const r = resource('done');
    await r.wait(0);
    expect(await answerNow(r.wait(50))).toBe('done');
  });

  it('answers when the caller goes away, without counting that answer as told', async () => {
    const r = resource('running');
    await r.wait(0);
    const gone = new AbortController();
    const waiting = r.wait(50, plain, r.actor, gone.signal);
    expect(await answerNow(waiting)).toBe('waiting');
    r.state = 'step_2'; // changed with no announcement: only a read would see it
    gone.abort();
    expect(await waiting).toBe('step_2');
    expect(await answerNow(r.wait(50))).toBe('step_2');
  });
});

describe('waitForChange without a notification', () => {
  let quick: TestApp;
  beforeAll(async () => {
    quick = await createTestApp({ env: { OPERATION_WAIT_RECHECK_MS: '20' } });
    await quick.deps.resourceWatch.ready();
  });
  afterAll(async () => quick?.close());

  // What a change made by another process looks like when its NOTIFY is lost (or, on the embedded database,
  // could never arrive): nothing wakes the waiter, and its slow re-read must find the change.
  it('sees a change nothing announced at its next re-read, long before the wait ends', async () => {
    const actor: Actor = { kind: 'user', workspaceId: 'ws_test', userId: 'usr_quiet', role: 'owner' };
    let state = 'running';
    const read = async () => state;
    await waitForChange(quick.deps, actor, { id: 'res_quiet', waitSeconds: 0 }, read, plain);
    const waiting = waitForChange(quick.deps, actor, { id: 'res_quiet', waitSeconds: 50 }, read, plain);
    expect(await answerNow(waiting)).toBe('waiting');
    state = 'step_2';
    const deadline = new Promise<string>((resolve) =>
      setTimeout(() => resolve('still waiting at half the wait'), 25_000).unref(),
    );
    expect(await Promise.race([waiting, deadline])).toBe('step_2');
  });
});

describe('waitForChange at shutdown', () => {
  it('answers open waits at once when the watch ends, and later ones without sleeping', async () => {
    const app = await createTestApp({ env: { OPERATION_WAIT_RECHECK_MS: '600000' } });
    try {
      await app.deps.resourceWatch.ready();
      const actor: Actor = { kind: 'user', workspaceId: 'ws_test', userId: 'usr_end', role: 'owner' };
      const read = async () => 'running';
      await waitForChange(app.deps, actor, { id: 'res_end', waitSeconds: 0 }, read, plain);
      const open = waitForChange(app.deps, actor, { id: 'res_end', waitSeconds: 50 }, read, plain);
      expect(await answerNow(open)).toBe('waiting');
      app.deps.resourceWatch.end();
      expect(await answerNow(open)).toBe('running');
      expect(await answerNow(waitForChange(app.deps, actor, { id: 'res_end', waitSeconds: 50 }, read, plain))).toBe(
        'running',
      );
    } finally {
      await app.close();
    }
  });
});
