import { describe, expect, it } from 'vitest';
import { createAnsweredStates } from '../../../src/handlers/operations/answered-states.ts';

describe('answered states', () => {
  it('keeps the last answer per caller and resource', () => {
    const answered = createAnsweredStates(10);
    answered.set('usr_a', 'run_1', 'running');
    answered.set('usr_b', 'run_1', 'queued');
    answered.set('usr_a', 'run_1', 'requires_action');
    expect(answered.get('usr_a', 'run_1')).toBe('requires_action');
    expect(answered.get('usr_b', 'run_1')).toBe('queued');
    expect(answered.get('usr_a', 'run_2')).toBeUndefined();
  });

  it('forgets the entry answered longest ago once past its limit', () => {
    const answered = createAnsweredStates(2);
    answered.set('usr_a', 'run_1', 'x');
    answered.set('usr_a', 'run_2', 'x');
    answered.set('usr_a', 'run_1', 'y'); // answered again: now the most recent
    answered.set('usr_a', 'run_3', 'x');
    expect(answered.get('usr_a', 'run_2')).toBeUndefined();
    expect(answered.get('usr_a', 'run_1')).toBe('y');
    expect(answered.get('usr_a', 'run_3')).toBe('x');
  });
});
