// Settings → Connectors: the accounts agents in this workspace act through (Gmail). Connecting opens
// the provider's consent page in a new tab, and the page follows the connector until the human has
// answered there, without a reload. A connected one sends a test email; a failed, expired or revoked
// one gets a fresh consent link; any can be disconnected after a confirmation. Every member sees the
// page; the API decides who may disconnect what.
import { allPages, ApiProblem } from './api.js';
import { connectorFollower, MAX_FOLLOWED } from './connector-follower.js';
import { connectorName, failureText, linkUsable, modeCell, providerName, statusBadge } from './connector-words.js';
import { confirmDialog } from './dialogs.js';
import { banner, h, icon, mount, srOnly } from './dom.js';
import { fullDate, timeElement } from './format.js';
import { sandboxMailbox } from './sandbox-mailbox.js';
import { emptyState, errorState, loadingState, pageHeader } from './shell.js';
import { testEmailDialog } from './test-email-dialog.js';

/**
 * @param {HTMLElement} main
 * @param {import('./app.js').PageContext} ctx
 */
export function connectorsPage(main, ctx) {
  document.title = 'Connectors · Settings · Agent Platform';
  const description =
    'Accounts that agents in this workspace act through, such as a Gmail account they send email from. Any member can connect an account; admins, or the member who connected it, can disconnect it.';
  /** @type {{ connectors: any[], hasMail: boolean }} */
  const state = { connectors: [], hasMail: false };
  const notices = h('div', { class: 'notices' });
  const sandboxNote = h(
    'div',
    { class: 'notices', hidden: true },
    banner(
      'info',
      'No real Google account is involved: this service plays Google’s consent page and Gmail itself. Mail sent through a sandbox connector is never delivered; it stays in the sandbox mailbox below.',
      { title: 'Sandbox mode' },
    ),
  );
  const card = h('section', { class: 'card', 'aria-label': 'Connectors' });
  const mailbox = sandboxMailbox(ctx);
  const { follow } = connectorFollower({
    api: ctx.api,
    signal: ctx.signal,
    alive: ctx.alive,
    current: (id) => find(id),
    onChange: changed,
    onLinkExpired: () => renderList(),
  });
  mount(
    main,
    pageHeader({ title: 'Connectors', description, action: connectButton('Connect Gmail') }),
    notices,
    sandboxNote,
    card,
    mailbox.element,
  );
  void load();

  async function load() {
    mount(card, loadingState('Loading connectors…'));
    try {
      const [connectors, messages] = await Promise.all([
        allPages((c) => ctx.api.list_connectors({ limit: 50, cursor: c ?? undefined })),
        mailbox.load(),
      ]);
      if (!ctx.alive()) return;
      state.connectors = connectors;
      state.hasMail = Boolean(messages?.length);
      renderList();
      for (const c of connectors.filter(linkUsable).slice(0, MAX_FOLLOWED).reverse()) follow(c.id);
    } catch (error) {
      if (ctx.alive())
        mount(
          card,
          errorState(error instanceof Error ? error.message : String(error), () => void load()),
        );
    }
  }

  /** @param {'success' | 'error' | 'info'} kind @param {string} message */
  function notify(kind, message) {
    mount(notices, banner(kind, message, { onDismiss: () => mount(notices) }));
  }

  /** @param {string} label */
  function connectButton(label) {
    const button = /** @type {HTMLButtonElement} */ (
      h('button', { type: 'button', class: 'btn btn-primary' }, icon('plug'), h('span', { text: label }))
    );
    button.addEventListener('click', () => void connect(button, null));
    return button;
  }

  /** @param {string} id */
  const find = (id) => state.connectors.find((c) => c.id === id);

  /** @param {any} connector */
  function upsert(connector) {
    const known = state.connectors.some((c) => c.id === connector.id);
    state.connectors = known
      ? state.connectors.map((c) => (c.id === connector.id ? connector : c))
      : [connector, ...state.connectors];
  }

  function renderList() {
    const sandbox = state.hasMail || state.connectors.some((c) => c.mode === 'sandbox');
    sandboxNote.hidden = !sandbox;
    mailbox.element.hidden = !sandbox;
    if (!state.connectors.length) {
      const message =
        'Connect a Gmail account so agents in this workspace can send email from it. You allow access on Google’s consent page, in a new tab.';
      mount(
        card,
        emptyState({ icon: 'plug', title: 'No connectors yet', message, action: connectButton('Connect an account') }),
      );
      return;
    }
    const head = ['Account', 'Status', 'Mode'].map((t) => h('th', { scope: 'col', text: t }));
    const table = h(
      'table',
      { class: 'table' },
      h('caption', { class: 'sr-only', text: `Connectors (${state.connectors.length})` }),
      h('thead', null, h('tr', null, head, h('th', { scope: 'col' }, srOnly('Actions')))),
      h('tbody', null, state.connectors.map(connectorRow)),
    );
    const count = state.connectors.length;
    const connected = state.connectors.filter((c) => c.status === 'connected').length;
    mount(
      card,
      h('div', { class: 'table-wrap' }, table),
      h('p', {
        class: 'card-footer',
        text: `${count} ${count === 1 ? 'connector' : 'connectors'} · ${connected} connected`,
      }),
    );
  }

  /** @param {any} c */
  function connectorRow(c) {
    const account = h(
      'th',
      { scope: 'row', class: 'cell-primary' },
      h('span', {
        class: c.account_email ? 'cell-title' : 'cell-title muted',
        text: c.account_email ?? 'No account yet',
      }),
      h('span', { class: 'cell-sub' }, `${providerName(c.provider)} · added `, timeElement(c.created_at)),
      h('code', { class: 'cell-sub connector-id', text: c.id }),
    );
    return h(
      'tr',
      { class: c.status === 'revoked' ? 'row-muted' : null, dataset: { connectorId: c.id } },
      account,
      h('td', null, statusBadge(c), statusDetail(c)),
      h('td', null, modeCell(c)),
      h('td', { class: 'cell-actions' }, h('span', { class: 'row-actions' }, actions(c))),
    );
  }

  /** @param {any} c */
  function statusDetail(c) {
    if (c.status === 'connected' && c.connected_at)
      return h('span', { class: 'cell-sub', text: `Since ${fullDate(c.connected_at)}` });
    if (c.status === 'pending_consent') {
      return linkUsable(c)
        ? h('span', {
            class: 'cell-sub',
            text: c.authorization_expires_at
              ? `Consent link valid until ${fullDate(c.authorization_expires_at)}`
              : 'Allow access on the consent page.',
          })
        : h('span', { class: 'cell-sub', text: 'The consent link expired; get a new one.' });
    }
    const reason = failureText(c.failure_reason);
    return reason ? h('span', { class: 'cell-sub failure', text: reason }) : null;
  }

  /** @param {any} c */
  function actions(c) {
    const name = connectorName(c);
    const remove = h('button', {
      type: 'button',
      class: 'btn btn-ghost-danger btn-sm',
      'aria-label': `Disconnect ${name}`,
      text: 'Disconnect',
      on: { click: () => void disconnect(c) },
    });
    if (c.status === 'connected') {
      const test = h(
        'button',
        {
          type: 'button',
          class: 'btn btn-secondary btn-sm',
          'aria-label': `Send test email from ${name}`,
          on: { click: () => sendTest(c) },
        },
        icon('send'),
        h('span', { text: 'Send test email' }),
      );
      return [test, remove];
    }
    const pending = c.status === 'pending_consent';
    const label = pending ? `New consent link for ${name}` : `Reconnect ${name}`;
    const reconnect = /** @type {HTMLButtonElement} */ (
      h('button', {
        type: 'button',
        class: 'btn btn-secondary btn-sm',
        'aria-label': label,
        text: pending ? 'New link' : 'Reconnect',
      })
    );
    reconnect.addEventListener('click', () => void connect(reconnect, c));
    if (!pending) return [reconnect];
    if (!linkUsable(c)) return [reconnect, remove];
    const open = h(
      'a',
      { class: 'btn btn-secondary btn-sm', href: c.authorization_url, target: '_blank', rel: 'noopener noreferrer' },
      icon('external'),
      h('span', { text: 'Open consent page' }),
    );
    return [open, remove];
  }

  /** Starts a connection (or a fresh link for `existing`) and opens the consent page in a new tab. @param {HTMLButtonElement} button @param {any} existing */
  async function connect(button, existing) {
    button.disabled = true;
    button.setAttribute('aria-busy', 'true');
    try {
      const connector = await ctx.api.start_connector_oauth(
        existing ? { provider: 'gmail', reconnect_connector_id: existing.id } : { provider: 'gmail' },
      );
      if (!ctx.alive()) return;
      if (connector.authorization_url) window.open(connector.authorization_url, '_blank', 'noopener');
      upsert(connector);
      renderList();
      notify(
        'info',
        'Allow access on the consent page in the new tab; this page shows the connector as connected as soon as you do. No tab? Use “Open consent page” in the list.',
      );
      follow(connector.id);
    } catch (error) {
      if (ctx.alive() && !(error instanceof ApiProblem && error.status === 401))
        notify('error', error instanceof Error ? error.message : String(error));
    } finally {
      button.disabled = false;
      button.removeAttribute('aria-busy');
    }
  }

  /** @param {any} c */
  function sendTest(c) {
    testEmailDialog({
      api: ctx.api,
      connector: c,
      defaultTo: ctx.me.user?.email ?? '',
      onSent: (sent) => {
        if (sent.mode === 'sandbox' && ctx.alive())
          void mailbox.load().then((messages) => (state.hasMail = state.hasMail || Boolean(messages?.length)));
      },
    });
  }

  /** @param {any} c */
  async function disconnect(c) {
    const name = connectorName(c);
    const message =
      c.status === 'connected'
        ? [
            h('strong', { text: name }),
            ' stops working for agents in this workspace at once: access is withdrawn at the provider and its tokens are deleted. You can connect it again later.',
          ]
        : ['The consent link of ', h('strong', { text: name }), ' stops working. You can start again later.'];
    await confirmDialog({
      title: 'Disconnect this account?',
      message,
      confirmLabel: 'Disconnect',
      busyLabel: 'Disconnecting…',
      action: async () => {
        const revoked = await ctx.api.revoke_connector({ connector_id: c.id });
        if (!ctx.alive()) return;
        upsert(revoked);
        renderList();
        notify('success', `${name} was disconnected.`);
      },
    });
  }

  /** What the follower saw change. @param {any} before @param {any} now */
  function changed(before, now) {
    upsert(now);
    renderList();
    if (before.status !== 'pending_consent') return;
    if (now.status === 'connected')
      notify('success', `${providerName(now.provider)} is connected as ${now.account_email}.`);
    else if (now.status === 'failed')
      notify(
        'error',
        `${providerName(now.provider)} was not connected: ${failureText(now.failure_reason) ?? 'the connection failed.'}`,
      );
  }
}
