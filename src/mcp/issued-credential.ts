// Tool results that hand the caller a new credential (signup, login, accepting an invitation), and the
// notes the two transports add to them. They are found by the shape of the success body, a bearer login at
// the top (login) or under `login` (the session answers), so an operation that starts answering a login
// later is covered without a list to keep in step with the contract.

import type { CallToolResult } from '@modelcontextprotocol/server';
import type { ToolDispatcher } from './dispatch.ts';

export interface IssuedCredential {
  accessToken: string;
  /** Where the token sits in the result, as the notes name it to the agent. */
  field: 'access_token' | 'login.access_token';
  expiresIn?: number;
  /** The workspace it acts in, when the body names it (a session answer does; a bare login does not). */
  workspace?: { id: string; name: string };
}

type Body = Record<string, unknown>;

function isObject(value: unknown): value is Body {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The JSON body of a successful result: its structuredContent, or its one text item parsed. */
function successBody(result: CallToolResult): Body | undefined {
  if (result.isError) return undefined;
  if (isObject(result.structuredContent)) return result.structuredContent;
  const [first] = result.content;
  if (result.content.length !== 1 || first?.type !== 'text' || !first.text.startsWith('{')) return undefined;
  // Every call passes here; a text result is parsed a second time only when it can hold a login.
  if (!first.text.includes('"access_token"')) return undefined;
  try {
    const parsed: unknown = JSON.parse(first.text);
    return isObject(parsed) ? parsed : undefined;
  } catch {
    return undefined;
  }
}

function bearerLogin(value: unknown): { access_token: string; expires_in?: unknown } | undefined {
  if (!isObject(value) || value.token_type !== 'bearer') return undefined;
  return typeof value.access_token === 'string' && value.access_token !== ''
    ? (value as { access_token: string })
    : undefined;
}

export function issuedCredential(result: CallToolResult): IssuedCredential | undefined {
  const body = successBody(result);
  if (!body) return undefined;
  const top = bearerLogin(body);
  const nested = top ? undefined : bearerLogin(body.login);
  const login = top ?? nested;
  if (!login) return undefined;
  const ws = body.workspace;
  const workspace =
    isObject(ws) && typeof ws.id === 'string' && typeof ws.name === 'string' ? { id: ws.id, name: ws.name } : undefined;
  const expiresIn = typeof login.expires_in === 'number' ? login.expires_in : undefined;
  return { accessToken: login.access_token, field: top ? 'access_token' : 'login.access_token', expiresIn, workspace };
}

function workspaceOf(issued: IssuedCredential): string {
  return issued.workspace
    ? `workspace "${issued.workspace.name}" (${issued.workspace.id})`
    : 'the workspace this login is for';
}

function expiry(issued: IssuedCredential): string {
  return issued.expiresIn === undefined
    ? ''
    : ` It expires in ${issued.expiresIn} s; call login again for a fresh one.`;
}

/** What an HTTP client reads: the connection keeps its credential, since the server holds no session to change. */
export function reconnectNote(issued: IssuedCredential): string {
  return (
    `This connection still acts with the credential it connected with. To act in ${workspaceOf(issued)}, ` +
    `reconnect to /mcp with the header \`Authorization: Bearer <${issued.field}>\` (the \`${issued.field}\` of this result).` +
    expiry(issued)
  );
}

/** What a stdio client reads once the launcher has switched to the credential. */
export function adoptedNote(issued: IssuedCredential): string {
  return (
    `service-mcp now acts with the credential this call returned (${workspaceOf(issued)}) for the rest of this process; ` +
    `restarting it returns to SERVICE_API_KEY.${expiry(issued)}`
  );
}

function withNote(result: CallToolResult, text: string): CallToolResult {
  // Appended, never merged: the first text item and structuredContent stay exactly the REST body.
  return { ...result, content: [...result.content, { type: 'text', text }] };
}

/**
 * Passes every call through `dispatcher`; a result that issues a credential gets `note(issued)` appended
 * after `onIssued(issued)` has run.
 */
export function onIssuedCredential(
  dispatcher: ToolDispatcher,
  note: (issued: IssuedCredential) => string,
  onIssued: (issued: IssuedCredential) => void = () => {},
): ToolDispatcher {
  return {
    has: (name) => dispatcher.has(name),
    async call(...args) {
      const result = await dispatcher.call(...args);
      const issued = issuedCredential(result);
      if (!issued) return result;
      onIssued(issued);
      return withNote(result, note(issued));
    },
  };
}
