// The panel's only way to the service: the public REST API on the same origin, with the bearer
// token in the Authorization header. Errors arrive as RFC 9457 problem+json and become ApiProblem.

export class ApiProblem extends Error {
  /**
   * @param {number} status
   * @param {{ code?: string, detail?: string, title?: string, request_id?: string, errors?: Array<{ field?: string, pointer?: string, message: string }> } | null} body
   */
  constructor(status, body) {
    super(body?.detail || body?.title || `The request failed (HTTP ${status}).`);
    this.name = 'ApiProblem';
    this.status = status;
    this.code = body?.code ?? 'unknown';
    this.requestId = body?.request_id;
    this.errors = body?.errors ?? [];
  }
}

/**
 * @param {{ getToken: () => string | null, onUnauthorized: (problem: ApiProblem) => void, fetch?: typeof fetch }} options
 */
export function createApi(options) {
  const doFetch = options.fetch ?? ((input, init) => fetch(input, init));

  /**
   * @param {string} method
   * @param {string} path
   * @param {{ body?: unknown, auth?: boolean, bearer?: string, signal?: AbortSignal }} [init]
   */
  async function request(method, path, init = {}) {
    const auth = init.auth !== false;
    const token = init.bearer ?? (auth ? options.getToken() : null);
    /** @type {Record<string, string>} */
    const headers = { Accept: 'application/json, application/problem+json' };
    if (token) headers.Authorization = `Bearer ${token}`;
    if (init.body !== undefined) headers['Content-Type'] = 'application/json';
    let res;
    try {
      res = await doFetch(path, {
        method,
        headers,
        body: init.body === undefined ? undefined : JSON.stringify(init.body),
        credentials: 'omit',
        cache: 'no-store',
        signal: init.signal,
      });
    } catch (error) {
      // A request the page itself gave up on (it was left) is not a network problem.
      if (init.signal?.aborted) throw error;
      throw new ApiProblem(0, {
        code: 'network',
        detail: 'The service could not be reached. Check your connection and try again.',
      });
    }
    if (res.status === 204) return null;
    const body = await res.json().catch(() => null);
    if (res.ok) return body;
    const problem = new ApiProblem(res.status, body);
    // Any 401 on an authenticated call means the session is over (expired, or the member was removed).
    if (res.status === 401 && auth && !init.bearer) options.onUnauthorized(problem);
    throw problem;
  }

  /** @param {number} limit @param {string | null} [cursor] */
  const pageQuery = (limit, cursor) => `?limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
  /** @param {string} id */
  const seg = (id) => encodeURIComponent(id);

  return {
    /** A new account and the workspace it owns; the answer carries a login. @param {{ email: string, password: string, name: string, workspace_name: string }} body */
    signup: (body) => request('POST', '/api/v1/users/signup', { body, auth: false }),
    /** @param {string} email @param {string} password */
    login: (email, password) => request('POST', '/api/v1/users/login', { body: { email, password }, auth: false }),
    /** @param {{ token: string, name: string, password: string }} body */
    acceptInvitation: (body) => request('POST', '/api/v1/invitations/accept', { body, auth: false }),
    /** An existing account accepts with its own login, not with a password on the join form. @param {string} token @param {string} login */
    acceptInvitationAsMe: (token, login) =>
      request('POST', '/api/v1/invitations/accept-as-me', { body: { token }, bearer: login }),
    me: () => request('GET', '/api/v1/users/me'),
    listWebinars: () => request('GET', `/api/v1/webinars${pageQuery(100)}`),
    /** @param {string} id @param {string | null} [cursor] */
    listWebinarRegistrants: (id, cursor) =>
      request('GET', `/api/v1/webinars/${seg(id)}/registrants${pageQuery(100, cursor)}`),
    listBlogPosts: () => request('GET', `/api/v1/blog-posts${pageQuery(100)}`),
    listAdCampaigns: () => request('GET', `/api/v1/ad-campaigns${pageQuery(100)}`),
    /** @param {string} id */
    getAdCampaign: (id) => request('GET', `/api/v1/ad-campaigns/${seg(id)}`),
    /** @param {string} id */
    getBlogPost: (id) => request('GET', `/api/v1/blog-posts/${seg(id)}`),
    /** @param {string | null} [cursor] */
    listKeys: (cursor) => request('GET', `/api/v1/api-keys${pageQuery(100, cursor)}`),
    /** @param {string} name */
    createKey: (name) => request('POST', '/api/v1/api-keys', { body: { name } }),
    /** @param {string} id */
    revokeKey: (id) => request('DELETE', `/api/v1/api-keys/${seg(id)}`),
    /** @param {string | null} [cursor] */
    listMembers: (cursor) => request('GET', `/api/v1/members${pageQuery(100, cursor)}`),
    /** @param {string} email @param {'admin' | 'member'} role */
    invite: (email, role) => request('POST', '/api/v1/invitations', { body: { email, role } }),
    /** @param {string} userId @param {'admin' | 'member'} role */
    changeRole: (userId, role) => request('PATCH', `/api/v1/members/${seg(userId)}`, { body: { role } }),
    /** @param {string} userId */
    removeMember: (userId) => request('DELETE', `/api/v1/members/${seg(userId)}`),
    /** @param {string | null} [cursor] */
    listConnectors: (cursor) => request('GET', `/api/v1/connectors${pageQuery(50, cursor)}`),
    /** Answers as soon as the status changes, or after `waitSeconds`. @param {string} id @param {{ waitSeconds?: number, signal?: AbortSignal }} [options] */
    getConnector: (id, options = {}) =>
      request(
        'GET',
        `/api/v1/connectors/${seg(id)}${options.waitSeconds ? `?wait_seconds=${options.waitSeconds}` : ''}`,
        { signal: options.signal },
      ),
    /** A new Gmail connector waiting for consent, or a fresh consent link for `reconnectId`. @param {string | null} [reconnectId] */
    startGmail: (reconnectId) =>
      request('POST', '/api/v1/connectors/oauth', {
        body: reconnectId ? { provider: 'gmail', reconnect_connector_id: reconnectId } : { provider: 'gmail' },
      }),
    /** @param {string} id @param {string} to */
    sendTestEmail: (id, to) => request('POST', `/api/v1/connectors/${seg(id)}/test-email`, { body: { to } }),
    /** @param {string} id */
    revokeConnector: (id) => request('DELETE', `/api/v1/connectors/${seg(id)}`),
    listSandboxMessages: () => request('GET', '/api/v1/sandbox/messages?limit=20'),
    /** Sandbox test helper: the lead of a sandbox message answers it. @param {string} messageId @param {string} kind @param {string} [text] */
    simulateSandboxInbound: (messageId, kind, text) =>
      request('POST', '/api/v1/sandbox/inbound', { body: { message_id: messageId, kind, ...(text ? { text } : {}) } }),
    /** @param {string} status comma-separated @param {string | null} [cursor] */
    listSequences: (status, cursor) =>
      request('GET', `/api/v1/sequences${pageQuery(50, cursor)}&status=${encodeURIComponent(status)}`),
    /** @param {string} id */
    getSequence: (id) => request('GET', `/api/v1/sequences/${seg(id)}`),
    /** Every step rendered for the workspace's sample leads, and the checks. @param {string} id */
    previewSequence: (id) => request('POST', `/api/v1/sequences/${seg(id)}/preview`, { body: {} }),
    /** Approves exactly the revision the person reviewed. @param {string} id @param {number} revision @param {string} note */
    approveSequence: (id, revision, note) =>
      request('POST', `/api/v1/sequences/${seg(id)}/approve`, { body: note ? { revision, note } : { revision } }),
    /** @param {string} id @param {string} note */
    rejectSequence: (id, note) => request('POST', `/api/v1/sequences/${seg(id)}/reject`, { body: { note } }),
    /** Replies written to leads in these statuses (comma-separated). @param {string} status @param {string | null} [cursor] */
    listConversationReplies: (status, cursor) =>
      request('GET', `/api/v1/conversation-replies${pageQuery(50, cursor)}&status=${encodeURIComponent(status)}`),
    /** Approving a reply sends it now. @param {string} id */
    approveConversationReply: (id) => request('POST', `/api/v1/conversation-replies/${seg(id)}/approve`),
    /** @param {string} id @param {string} note */
    rejectConversationReply: (id, note) =>
      request('POST', `/api/v1/conversation-replies/${seg(id)}/reject`, { body: { note } }),
    /** @param {{ status?: string, sequenceId?: string | null, cursor?: string | null }} filter */
    listSentMessages: (filter) => {
      const status = filter.status ? `&status=${encodeURIComponent(filter.status)}` : '';
      const sequence = filter.sequenceId ? `&sequence_id=${encodeURIComponent(filter.sequenceId)}` : '';
      return request('GET', `/api/v1/sent-messages${pageQuery(50, filter.cursor)}${status}${sequence}`);
    },
  };
}

/** @typedef {ReturnType<typeof createApi>} Api */

/**
 * Every page of a cursor list.
 * @template T
 * @param {(cursor: string | null) => Promise<{ data: T[], has_more: boolean, next_cursor: string | null }>} fetchPage
 * @returns {Promise<T[]>}
 */
export async function allPages(fetchPage) {
  const items = [];
  let cursor = null;
  for (let i = 0; i < 50; i += 1) {
    const page = await fetchPage(cursor);
    items.push(...page.data);
    if (!page.has_more || !page.next_cursor) break;
    cursor = page.next_cursor;
  }
  return items;
}
