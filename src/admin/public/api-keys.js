// Settings → API keys: the workspace's keys, creating one (its secret shown once, in a dialog that
// is removed when closed), and revoking one after a confirmation step. Admins only.
import { allPages, ApiProblem } from './api.js';
import { busy, confirmDialog, openDialog, secretField } from './dialogs.js';
import { badge, banner, h, icon, mount, srOnly } from './dom.js';
import { applyFieldErrors, field, input, submitButton } from './forms.js';
import { fullDate, timeElement } from './format.js';
import { adminOnlyNotice, emptyState, errorState, loadingState, pageHeader } from './shell.js';

/**
 * @param {HTMLElement} main
 * @param {import('./app.js').PageContext} ctx
 */
export function apiKeysPage(main, ctx) {
  document.title = 'API keys · Settings · Agent Platform';
  const description =
    'Keys let services and scripts call the API on behalf of this workspace. A key acts with the role of the member who created it, never more: it acts as a member at once if they are made a member. When a member leaves the workspace, the keys they created are revoked. Keys made with the operator CLI belong to the workspace and act with the role the CLI gave them.';
  if (!ctx.isAdmin) {
    const message =
      'Only workspace admins and the owner can create, list or revoke API keys. Ask one of them if a service needs a key.';
    mount(
      main,
      pageHeader({ title: 'API keys', description }),
      adminOnlyNotice({ title: 'API key management is admin-only', message, me: ctx.me }),
    );
    return;
  }
  /** @type {{ keys: any[], people: Map<string, string> }} */
  const state = { keys: [], people: new Map() };
  const notices = h('div', { class: 'notices' });
  const card = h('section', { class: 'card', 'aria-label': 'API keys' });
  const create = h(
    'button',
    { type: 'button', class: 'btn btn-primary', on: { click: () => createKeyDialog() } },
    icon('plus'),
    h('span', { text: 'Create API key' }),
  );
  mount(main, pageHeader({ title: 'API keys', description, action: create }), notices, card);
  void load();

  async function load() {
    mount(card, loadingState('Loading API keys…'));
    try {
      const [keys, members] = await Promise.all([
        allPages((c) => ctx.api.list_api_keys({ limit: 100, cursor: c ?? undefined })),
        allPages((c) => ctx.api.list_members({ limit: 100, cursor: c ?? undefined })).catch(() => []),
      ]);
      if (!ctx.alive()) return;
      state.keys = keys;
      state.people = new Map(members.map((m) => /** @type {[string, string]} */ ([m.user_id, m.name || m.email])));
      renderList();
    } catch (error) {
      if (ctx.alive())
        mount(
          card,
          errorState(error instanceof Error ? error.message : String(error), () => void load()),
        );
    }
  }

  /** @param {'success' | 'error'} kind @param {string} message */
  function notify(kind, message) {
    mount(notices, banner(kind, message, { onDismiss: () => mount(notices) }));
  }

  function renderList() {
    if (!state.keys.length) {
      const first = h(
        'button',
        { type: 'button', class: 'btn btn-primary', on: { click: () => createKeyDialog() } },
        icon('plus'),
        h('span', { text: 'Create your first key' }),
      );
      mount(
        card,
        emptyState({
          icon: 'key',
          title: 'No API keys yet',
          message: 'Create a key to let a service, a script or an agent call the API.',
          action: first,
        }),
      );
      return;
    }
    const head = ['Name', 'Key', 'Created by', 'Created', 'Last used', 'Status', 'Acts as'].map((t) =>
      h('th', { scope: 'col', text: t }),
    );
    const table = h(
      'table',
      { class: 'table' },
      h('caption', { class: 'sr-only', text: `API keys (${state.keys.length})` }),
      h('thead', null, h('tr', null, head, h('th', { scope: 'col' }, srOnly('Actions')))),
      h('tbody', null, state.keys.map(keyRow)),
    );
    mount(
      card,
      h('div', { class: 'table-wrap' }, table),
      h('p', {
        class: 'card-footer',
        text: `${state.keys.length} ${state.keys.length === 1 ? 'key' : 'keys'} · ${activeCount()} active`,
      }),
    );
  }

  const activeCount = () => state.keys.filter((k) => !k.revoked_at).length;

  /** @param {any} key */
  function keyRow(key) {
    const revoked = Boolean(key.revoked_at);
    const status = revoked ? badge('Revoked', 'gray') : badge('Active', 'green');
    if (revoked) status.title = `Revoked ${fullDate(key.revoked_at)}`;
    const why =
      key.revoked_reason === 'creator_removed' ? h('span', { class: 'cell-sub', text: 'Creator left' }) : null;
    const actsAs = key.effective_role
      ? h('span', { class: 'nowrap', text: `Acts as ${key.effective_role}` })
      : h('span', { class: 'muted', text: '—' });
    if (key.effective_role && key.effective_role !== key.role)
      actsAs.title = `Minted as ${key.role}; lowered to its creator's current role`;
    const scopes = key.scopes.includes('*') ? 'All scopes' : key.scopes.join(', ');
    const action = revoked
      ? h('span', { class: 'muted', 'aria-hidden': 'true', text: '—' })
      : h('button', {
          type: 'button',
          class: 'btn btn-ghost-danger btn-sm',
          'aria-label': `Revoke ${key.name}`,
          text: 'Revoke',
          on: { click: () => revokeKey(key) },
        });
    return h(
      'tr',
      { class: revoked ? 'row-muted' : null, dataset: { keyId: key.id } },
      h(
        'th',
        { scope: 'row', class: 'cell-primary' },
        h('span', { class: 'cell-title', text: key.name }),
        h('span', { class: 'cell-sub', text: scopes }),
      ),
      h('td', null, h('code', { class: 'key-prefix', text: `svc_${key.prefix}_…` })),
      h('td', { class: 'nowrap', text: creator(key.created_by) }),
      h('td', null, timeElement(key.created_at)),
      h(
        'td',
        null,
        key.last_used_at
          ? timeElement(key.last_used_at, { relativeTime: true })
          : h('span', { class: 'muted', text: 'Never' }),
      ),
      h('td', null, status, why),
      h('td', null, actsAs),
      h('td', { class: 'cell-actions' }, action),
    );
  }

  /** @param {string | null} userId */
  function creator(userId) {
    if (!userId) return 'Operator CLI (workspace key)';
    return state.people.get(userId) ?? 'Former member';
  }

  function createKeyDialog() {
    const d = openDialog({ title: 'Create API key' });
    const name = input({
      type: 'text',
      name: 'name',
      required: true,
      maxlength: '100',
      autocomplete: 'off',
      placeholder: 'e.g. CI runner',
    });
    const errorSlot = h('div', { class: 'dialog-error' });
    const submit = submitButton('Create key');
    const cancel = h('button', {
      type: 'button',
      class: 'btn btn-secondary',
      text: 'Cancel',
      on: { click: () => d.close() },
    });
    const form = /** @type {HTMLFormElement} */ (
      h(
        'form',
        { class: 'dialog-form' },
        field({ label: 'Name', control: name, hint: 'So you can tell keys apart later: what or who will use it.' }),
        errorSlot,
        h('div', { class: 'dialog-actions' }, cancel, submit),
      )
    );
    form.addEventListener('submit', async (event) => {
      event.preventDefault();
      const created = await busy(submit, errorSlot, 'Creating…', async () => {
        try {
          return await ctx.api.create_api_key({ name: name.value.trim() });
        } catch (error) {
          throw error instanceof ApiProblem ? new Error(applyFieldErrors(form, error)) : error;
        }
      });
      if (!created) return;
      const { key, ...listed } = created;
      state.keys = [listed, ...state.keys.filter((k) => k.id !== listed.id)];
      renderList();
      notify('success', `API key “${listed.name}” created.`);
      showSecret(d, listed.name, key);
    });
    d.setContent([form]);
  }

  /** @param {import('./dialogs.js').DialogHandle} d @param {string} name @param {string} key */
  function showSecret(d, name, key) {
    d.setTitle('Save your new API key');
    const done = h('button', {
      type: 'button',
      class: 'btn btn-primary',
      text: 'Done',
      on: { click: () => d.close() },
    });
    const warning = banner(
      'warning',
      'Copy it now and store it somewhere safe, such as a secrets manager. You will not see this key again.',
      { title: 'This is the only time the key is shown' },
    );
    d.setContent(
      [
        h('p', { class: 'dialog-text' }, 'Your key ', h('strong', { text: name }), ' is ready.'),
        warning,
        secretField({ label: 'API key', value: key, name: 'api-key' }),
        h('div', { class: 'dialog-actions' }, done),
      ],
      null,
    );
  }

  /** @param {any} key */
  async function revokeKey(key) {
    const message = [
      `Requests that use `,
      h('strong', { text: key.name }),
      ' (',
      h('code', { text: `svc_${key.prefix}_…` }),
      ') will be rejected from the very next request. This cannot be undone.',
    ];
    await confirmDialog({
      title: 'Revoke API key?',
      message,
      confirmLabel: 'Revoke key',
      busyLabel: 'Revoking…',
      action: async () => {
        const revoked = await ctx.api.revoke_api_key({ key_id: key.id });
        state.keys = state.keys.map((k) => (k.id === revoked.id ? revoked : k));
        renderList();
        notify('success', `API key “${key.name}” revoked. It no longer works.`);
      },
    });
  }
}
