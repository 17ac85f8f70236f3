// Which tool results count as issuing a credential, and the notes each transport adds to them.

import { describe, expect, it } from 'vitest';
import type { CallToolResult } from '@modelcontextprotocol/server';
import {
  adoptedNote,
  issuedCredential,
  onIssuedCredential,
  reconnectNote,
  type IssuedCredential,
} from '../../src/mcp/issued-credential.ts';

const login = { access_token: 'eyJ.a.b', token_type: 'bearer', expires_in: 900 };
const session = { user: { id: 'usr_1' }, workspace: { id: 'ws_1', name: 'Acme' }, role: 'owner', login };
const structured = (body: Record<string, unknown>): CallToolResult => ({
  content: [{ type: 'text', text: JSON.stringify(body) }],
  structuredContent: body,
});
const textOnly = (body: unknown): CallToolResult => ({ content: [{ type: 'text', text: JSON.stringify(body) }] });

const cases: [string, { given: CallToolResult; want: IssuedCredential | undefined }][] = [
  [
    'a login at the top',
    {
      given: structured(login),
      want: { accessToken: 'eyJ.a.b', field: 'access_token', expiresIn: 900, workspace: undefined },
    },
  ],
  [
    'a session answer',
    {
      given: structured(session),
      want: {
        accessToken: 'eyJ.a.b',
        field: 'login.access_token',
        expiresIn: 900,
        workspace: { id: 'ws_1', name: 'Acme' },
      },
    },
  ],
  [
    'a login as text only (no outputSchema)',
    {
      given: textOnly(login),
      want: { accessToken: 'eyJ.a.b', field: 'access_token', expiresIn: 900, workspace: undefined },
    },
  ],
  ['an error result shaped like a login', { given: { ...structured(login), isError: true }, want: undefined }],
  ['a token of another type', { given: structured({ ...login, token_type: 'mac' }), want: undefined }],
  ['an empty token', { given: structured({ ...login, access_token: '' }), want: undefined }],
  ['an API key answer (no token_type)', { given: structured({ id: 'key_1', key: 'svc_x_y' }), want: undefined }],
  ['a list of logins', { given: textOnly([login]), want: undefined }],
  [
    'a text that is not JSON',
    { given: { content: [{ type: 'text', text: '{"access_token": cut' }] }, want: undefined },
  ],
];

describe('issuedCredential', () => {
  it.each(cases)('reads %s', (_name, { given, want }) => {
    expect(issuedCredential(given)).toEqual(want);
  });
});

describe('the notes', () => {
  const issued = issuedCredential(structured(session))!;

  it('tells an HTTP client where the token is and to reconnect with it', () => {
    expect(reconnectNote(issued)).toBe(
      'This connection still acts with the credential it connected with. To act in workspace "Acme" (ws_1), reconnect to /mcp ' +
        'with the header `Authorization: Bearer <login.access_token>` (the `login.access_token` of this result). It expires in 900 s; ' +
        'call login again for a fresh one.',
    );
  });

  it('tells a stdio client the launcher switched, until it restarts', () => {
    expect(adoptedNote(issued)).toMatch(
      /^service-mcp now acts with the credential this call returned \(workspace "Acme" \(ws_1\)\) for the rest of this process; restarting it returns to SERVICE_API_KEY\./,
    );
  });
});

describe('onIssuedCredential', () => {
  const answering = (result: CallToolResult) => ({ has: () => true, call: async () => result });

  it('appends the note and reports the credential once', async () => {
    const seen: string[] = [];
    const wrapped = onIssuedCredential(
      answering(structured(session)),
      () => 'note',
      (i) => seen.push(i.accessToken),
    );
    const result = await wrapped.call('signup', {}, undefined);
    expect(result.content).toEqual([...structured(session).content, { type: 'text', text: 'note' }]);
    expect(result.structuredContent).toEqual(session);
    expect(seen).toEqual(['eyJ.a.b']);
  });

  it('passes any other result through untouched', async () => {
    const other = structured({ id: 'lead_1' });
    const wrapped = onIssuedCredential(
      answering(other),
      () => 'note',
      () => {
        throw new Error('not a credential');
      },
    );
    expect(await wrapped.call('get_lead', {}, undefined)).toBe(other);
  });
});
