import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Deps, EventSubscriber, RecordedEvent } from '../../../src/deps.ts';
import { resumeRunsWaitingOn } from '../../../src/handlers/agents/resume.ts';
import { recordEvent, recordEvents } from '../../../src/handlers/events/record-event.ts';
import { fanOutEvent } from '../../../src/handlers/webhooks/deliver.ts';
import { createTestApp, type TestApp } from '../../helpers/app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t?.close());

const system = { type: 'system' as const, id: null };

describe('recordEvent and its subscribers', () => {
  it('registers webhook fan-out, then agent resumption, at the composition root', () => {
    expect(t.deps.eventSubscribers).toEqual([fanOutEvent, resumeRunsWaitingOn]);
  });

  it('hands each subscriber, in order, the event inside the transaction that records it', async () => {
    const { workspaceId } = await t.signup();
    const seen: { name: string; event: RecordedEvent; visible: number }[] = [];
    const watching =
      (name: string): EventSubscriber =>
      async (_deps, tx, _workspaceId, events) => {
        for (const event of events) {
          const rows = await tx`select 1 from events where id = ${event.id}`;
          seen.push({ name, event, visible: rows.length });
        }
      };
    const deps: Deps = { ...t.deps, eventSubscribers: [watching('first'), watching('second')] };
    const event = await deps.db.sql.begin((tx) =>
      recordEvent(deps, tx, workspaceId, system, 'test.happened', { id: 'x_1' }),
    );
    expect(seen.map((s) => s.name)).toEqual(['first', 'second']);
    expect(seen.every((s) => s.event === event && s.visible === 1)).toBe(true);
  });

  it('hands each subscriber the events one change records at once in one call, in the order recorded', async () => {
    const { workspaceId } = await t.signup();
    const calls: { name: string; types: string[]; visible: number }[] = [];
    const watching =
      (name: string): EventSubscriber =>
      async (_deps, tx, _workspaceId, events) => {
        const rows = await tx`select 1 from events where id = any(${events.map((e) => e.id)})`;
        calls.push({ name, types: events.map((e) => e.type), visible: rows.length });
      };
    const deps: Deps = { ...t.deps, eventSubscribers: [watching('first'), watching('second')] };
    const recorded = await deps.db.sql.begin((tx) =>
      recordEvents(deps, tx, workspaceId, system, [
        { type: 'test.one', data: { id: 'x_1' } },
        { type: 'test.two', data: { id: 'x_2' } },
        { type: 'test.three', data: { id: 'x_3' } },
      ]),
    );
    const types = ['test.one', 'test.two', 'test.three'];
    expect(recorded.map((e) => e.type)).toEqual(types);
    expect(calls).toEqual([
      { name: 'first', types, visible: 3 },
      { name: 'second', types, visible: 3 },
    ]);
  });

  it('rolls the event back with the change when a subscriber throws', async () => {
    const { workspaceId } = await t.signup();
    const failing: EventSubscriber = async () => {
      throw new Error('the subscriber failed');
    };
    const deps: Deps = { ...t.deps, eventSubscribers: [failing] };
    await expect(
      deps.db.sql.begin((tx) => recordEvent(deps, tx, workspaceId, system, 'test.failed', { id: 'x_2' })),
    ).rejects.toThrow('the subscriber failed');
    const rows = await t.deps.db.sql`select 1 from events where workspace_id = ${workspaceId} and type = 'test.failed'`;
    expect(rows).toHaveLength(0);
  });
});
