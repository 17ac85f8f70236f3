import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Deps, EventSubscriber, RecordedEvent } from '../../../src/deps.ts';
import { resumeRunsWaitingOn } from '../../../src/handlers/agents/resume.ts';
import { recordEvent } from '../../../src/handlers/events/record-event.ts';
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
      async (_deps, tx, _workspaceId, event) => {
        const rows = await tx`select 1 from events where id = ${event.id}`;
        seen.push({ name, event, visible: rows.length });
      };
    const deps: Deps = { ...t.deps, eventSubscribers: [watching('first'), watching('second')] };
    const event = await deps.db.sql.begin((tx) =>
      recordEvent(deps, tx, workspaceId, system, 'test.happened', { id: 'x_1' }),
    );
    expect(seen.map((s) => s.name)).toEqual(['first', 'second']);
    expect(seen.every((s) => s.event === event && s.visible === 1)).toBe(true);
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
