import { describe, expect, it } from 'vitest';
import { createDocsIndex } from '../../../src/handlers/docs/docs-index.ts';
import type { DocsPassage } from '../../../src/handlers/docs/docs-passage.ts';
import { analyze, stem } from '../../../src/handlers/docs/stemmer.ts';

const passage = (id: string, text: string, tools: string[] = [], heading: string | null = null): DocsPassage => ({
  id,
  title: 'Guide',
  heading,
  text,
  source: id,
  tools,
});

describe('stem', () => {
  const cases: Array<[string, { given: string[]; want: string }]> = [
    ['verb forms', { given: ['revoke', 'revoked', 'revoking', 'revokes'], want: 'revok' }],
    ['a verb and its noun', { given: ['invite', 'invited', 'invitation', 'invitations'], want: 'invit' }],
    ['-ion after t', { given: ['connect', 'connected', 'connection'], want: 'connect' }],
    ['-ies and -ied', { given: ['retry', 'retries', 'retried'], want: 'retry' }],
    ['-ication', { given: ['notify', 'notified', 'notification'], want: 'notify' }],
    ['-ate verbs', { given: ['update', 'updated', 'updating'], want: 'upd' }],
    ['doubled consonants', { given: ['stop', 'stopped', 'stopping'], want: 'stop' }],
  ];
  it.each(cases)('joins %s', (_, { given, want }) => expect(given.map(stem)).toEqual(given.map(() => want)));

  it('leaves short words, numbers and identifiers alone', () => {
    expect(['key', '409', 'api'].map(stem)).toEqual(['key', '409', 'api']);
  });
});

describe('analyze', () => {
  it('drops stop words and keeps a snake_case name whole and in parts', () => {
    expect(analyze('How do I call revoke_api_key?')).toEqual(['call', 'revoke_api_key', 'revok', 'api', 'key']);
  });

  it('joins two-word names', () => {
    expect(analyze('Sign up, then log in')).toEqual(['signup', 'login']);
  });
});

describe('createDocsIndex', () => {
  const corpus = [
    passage('keys#mint', 'Mint an API key with a name; the key is shown once.', ['create_api_key'], 'Mint a key'),
    passage('keys#revoke', 'Revoking a key rejects it from the next request on.', ['revoke_api_key'], 'Revoke a key'),
    passage('openapi:revoke_api_key', 'Tool `revoke_api_key`: Revoke an API key.', ['revoke_api_key']),
    passage(
      'ops#wait',
      'Follow long work: pass wait_seconds to get_operation instead of polling.',
      ['get_operation'],
      'Wait for a job',
    ),
    passage(
      'errors#409',
      'A 409 connector_not_connected means the mailbox is not connected yet.',
      [],
      '409 connector_not_connected',
    ),
    passage('errors#429', 'A 429 rate_limited answer carries Retry-After.', [], '429 rate_limited'),
    passage('reads', 'Read one thing at a time.', ['get_me', 'get_connector', 'get_health', 'get_source'], 'Reading'),
  ];
  const index = createDocsIndex(corpus);
  const ids = (question: string, limit = 3) => index.search(question, limit).map((h) => h.id);

  it('finds a passage through a synonym of its verb', () => {
    expect(ids('how do I stop a key from working')[0]).toMatch(/revoke/);
  });

  it('puts the contract passage of an operation the question names first', () => {
    expect(ids('revoke api key')[0]).toBe('openapi:revoke_api_key');
    expect(ids('what does revoke_api_key do')[0]).toBe('openapi:revoke_api_key');
  });

  it('takes a verb that starts many tools (get_*) alone for no operation', () => {
    expect(ids('I get a 429')[0]).toBe('errors#429');
  });

  it('matches status codes and error codes', () => {
    expect(ids('what does 409 mean')[0]).toBe('errors#409');
    expect(ids('connector_not_connected')[0]).toBe('errors#409');
  });

  it('answers a loosely phrased question', () => {
    expect(ids('how long should I poll a background task')[0]).toBe('ops#wait');
  });

  it('returns at most limit hits, best first, each with its score', () => {
    const hits = index.search('key', 2);
    expect(hits).toHaveLength(2);
    expect(hits[0].score).toBeGreaterThanOrEqual(hits[1].score);
    expect(hits[0]).toMatchObject({ title: 'Guide', tools: expect.any(Array), source: expect.any(String) });
  });

  it('returns nothing for a question that matches no passage', () => {
    expect(index.search('zebra quantum', 5)).toEqual([]);
    expect(index.search('the of and', 5)).toEqual([]);
  });

  it('keeps corpus order between equal scores', () => {
    const twins = createDocsIndex([passage('a', 'same words here'), passage('b', 'same words here')]);
    expect(twins.search('words', 2).map((h) => h.id)).toEqual(['a', 'b']);
  });
});
