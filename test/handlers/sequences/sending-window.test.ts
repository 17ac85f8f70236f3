// The sending window's time-zone maths, across daylight-saving changes: the local day the daily limit
// counts from, and whether the window is open, in zones whose clocks move (and one that skips midnight).
import { describe, expect, it } from 'vitest';
import { localTime, startOfLocalDay, windowOpen } from '../../../src/handlers/sequences/sending-window.ts';

describe('startOfLocalDay', () => {
  it.each([
    ['an ordinary day in UTC', { zone: 'UTC', at: '2026-06-01T15:30:00Z', want: '2026-06-01T00:00:00.000Z' }],
    [
      'an ordinary day east of UTC',
      { zone: 'Asia/Tokyo', at: '2026-06-01T03:00:00Z', want: '2026-05-31T15:00:00.000Z' },
    ],
    ['a half-hour offset', { zone: 'Asia/Kolkata', at: '2026-06-01T12:00:00Z', want: '2026-05-31T18:30:00.000Z' }],
    [
      'the day clocks go forward, after the change',
      { zone: 'Europe/Berlin', at: '2026-03-29T10:00:00Z', want: '2026-03-28T23:00:00.000Z' },
    ],
    [
      'the day clocks go forward, before the change',
      { zone: 'Europe/Berlin', at: '2026-03-29T00:30:00Z', want: '2026-03-28T23:00:00.000Z' },
    ],
    [
      'the day clocks go back, after the change',
      { zone: 'Europe/Berlin', at: '2026-10-25T12:00:00Z', want: '2026-10-24T22:00:00.000Z' },
    ],
    [
      'the day clocks go forward in New York',
      { zone: 'America/New_York', at: '2026-03-08T18:00:00Z', want: '2026-03-08T05:00:00.000Z' },
    ],
    [
      'the day clocks go back in New York',
      { zone: 'America/New_York', at: '2026-11-01T18:00:00Z', want: '2026-11-01T04:00:00.000Z' },
    ],
    [
      'a day whose midnight does not exist (it starts at 01:00)',
      { zone: 'America/Santiago', at: '2026-09-06T12:00:00Z', want: '2026-09-06T04:00:00.000Z' },
    ],
  ])('finds the start of %s', (_name, { zone, at, want }) => {
    expect(startOfLocalDay(zone, new Date(at)).toISOString()).toBe(want);
  });
});

describe('localTime', () => {
  it.each([
    [
      'just before clocks go forward',
      { zone: 'Europe/Berlin', at: '2026-03-29T00:59:59Z', want: { weekday: 'sun', hour: 1, minute: 59, second: 59 } },
    ],
    [
      'just after clocks go forward',
      { zone: 'Europe/Berlin', at: '2026-03-29T01:00:00Z', want: { weekday: 'sun', hour: 3, minute: 0, second: 0 } },
    ],
    [
      'the first pass of the repeated hour',
      { zone: 'Europe/Berlin', at: '2026-10-25T00:30:00Z', want: { weekday: 'sun', hour: 2, minute: 30, second: 0 } },
    ],
    [
      'the second pass of the repeated hour',
      { zone: 'Europe/Berlin', at: '2026-10-25T01:30:00Z', want: { weekday: 'sun', hour: 2, minute: 30, second: 0 } },
    ],
    ['midnight', { zone: 'UTC', at: '2026-06-01T00:00:00Z', want: { weekday: 'mon', hour: 0, minute: 0, second: 0 } }],
  ])('reads the wall clock %s', (_name, { zone, at, want }) => {
    expect(localTime(zone, new Date(at))).toMatchObject(want);
  });
});

describe('windowOpen', () => {
  const weekdays = {
    timezone: 'Europe/Berlin',
    days: ['mon', 'tue', 'wed', 'thu', 'fri'],
    start_hour: 9,
    end_hour: 17,
  };
  it.each([
    ['opens at 09:00 summer time the Monday after clocks go forward', { at: '2026-03-30T07:00:00Z', want: true }],
    ['is still shut at 08:59 summer time that Monday', { at: '2026-03-30T06:59:00Z', want: false }],
    ['opens at 09:00 winter time the Monday after clocks go back', { at: '2026-10-26T08:00:00Z', want: true }],
    ['is still shut at 08:59 winter time that Monday', { at: '2026-10-26T07:59:00Z', want: false }],
    ['shuts at 17:00 local', { at: '2026-10-26T16:00:00Z', want: false }],
    ['stays shut on a Sunday', { at: '2026-10-25T10:00:00Z', want: false }],
  ])('%s', (_name, { at, want }) => {
    expect(windowOpen(weekdays, new Date(at))).toBe(want);
  });
});
