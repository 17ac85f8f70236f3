// Settings → Webhooks: the endpoints events are POSTed to (signed per Standard Webhooks), adding one (its
// signing secret shown once), editing, deleting after a confirmation, sending a test message, and each
// endpoint's deliveries with their attempts. Admins only, like the API.
import './webhooks.css';
import { allPages } from './api.js';
import { confirmDialog } from './dialogs.js';
import { banner, h, icon, mount, srOnly } from './dom.js';
import { adminOnlyNotice, emptyState, errorState, loadingState, pageHeader } from './shell.js';
import { createEndpointDialog, editEndpointDialog } from './webhook-dialogs.js';
import { deliveriesPanel } from './webhook-deliveries.js';
import { endpointRow } from './webhook-endpoint-row.js';

const TEST_WAIT_SECONDS = 20;

/**
 * @param {HTMLElement} main
 * @param {import('./app.js').PageContext} ctx
 */
export function webhooksPage(main, ctx) {
  document.title = 'Webhooks · Settings · Agent Platform';
  const description =
    'Endpoints that receive this workspace’s events as signed HTTP POSTs. A delivery that fails is retried on a schedule; an endpoint that keeps failing is disabled until someone enables it again.';
  if (!ctx.isAdmin) {
    mount(
      main,
      pageHeader({ title: 'Webhooks', description }),
      adminOnlyNotice({
        title: 'Webhooks are admin-only',
        message: 'Only workspace admins and the owner can see and manage webhook endpoints.',
        me: ctx.me,
      }),
    );
    return;
  }
  /** @type {{ endpoints: any[], open: ReturnType<typeof deliveriesPanel> | null, openId: string | null }} */
  const state = { endpoints: [], open: null, openId: null };
  const notices = h('div', { class: 'notices' });
  const card = h('section', { class: 'card', 'aria-label': 'Webhook endpoints' });
  const panelSlot = h('div');
  const add = h(
    'button',
    { type: 'button', class: 'btn btn-primary', on: { click: () => addEndpoint() } },
    icon('plus'),
    h('span', { text: 'Add endpoint' }),
  );
  mount(main, pageHeader({ title: 'Webhooks', description, action: add }), notices, card, panelSlot);
  void load();

  async function load() {
    mount(card, loadingState('Loading webhook endpoints…'));
    try {
      const endpoints = await allPages((c) => ctx.api.list_webhook_endpoints({ limit: 100, cursor: c ?? undefined }));
      if (!ctx.alive()) return;
      state.endpoints = endpoints;
      renderList();
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

  function addEndpoint() {
    createEndpointDialog({
      api: ctx.api,
      onCreated: (endpoint) => {
        state.endpoints = [endpoint, ...state.endpoints];
        renderList();
        notify('success', `Endpoint ${endpoint.url} added.`);
      },
    });
  }

  function renderList() {
    if (!state.endpoints.length) {
      const first = h(
        'button',
        { type: 'button', class: 'btn btn-primary', on: { click: () => addEndpoint() } },
        icon('plus'),
        h('span', { text: 'Add your first endpoint' }),
      );
      mount(
        card,
        emptyState({
          icon: 'webhook',
          title: 'No webhook endpoints yet',
          message:
            'Add an endpoint to have leads, replies, sequences and other events POSTed to your own service as they happen.',
          action: first,
        }),
      );
      return;
    }
    const head = ['Endpoint', 'Event types', 'Status'].map((t) => h('th', { scope: 'col', text: t }));
    const table = h(
      'table',
      { class: 'table' },
      h('caption', { class: 'sr-only', text: `Webhook endpoints (${state.endpoints.length})` }),
      h('thead', null, h('tr', null, head, h('th', { scope: 'col' }, srOnly('Actions')))),
      h(
        'tbody',
        null,
        state.endpoints.map((e) =>
          endpointRow(e, {
            open: state.openId === e.id,
            onDeliveries: () => showDeliveries(e),
            onTest: (b) => void sendTest(e, b),
            onEnable: (b) => void enable(e, b),
            onEdit: () => edit(e),
            onDelete: () => void remove(e),
          }),
        ),
      ),
    );
    const count = state.endpoints.length;
    mount(
      card,
      h('div', { class: 'table-wrap table-wrap-contained' }, table),
      h('p', { class: 'card-footer', text: `${count} ${count === 1 ? 'endpoint' : 'endpoints'}` }),
    );
  }

  /** @param {any} e */
  function showDeliveries(e, focus = true) {
    if (state.openId === e.id && focus) {
      closeDeliveries();
      return;
    }
    state.openId = e.id;
    state.open = deliveriesPanel({ api: ctx.api, alive: ctx.alive, endpoint: e, onClose: closeDeliveries });
    mount(panelSlot, state.open.element);
    void state.open.reload();
    renderList();
    if (focus) state.open.focus();
  }

  function closeDeliveries() {
    state.openId = null;
    state.open = null;
    mount(panelSlot);
    renderList();
  }

  /** @param {any} e @param {HTMLButtonElement} button */
  async function sendTest(e, button) {
    button.disabled = true;
    button.textContent = 'Sending…';
    try {
      let op = await ctx.api.send_test_webhook({ endpoint_id: e.id });
      while (ctx.alive() && (op.status === 'queued' || op.status === 'running')) {
        op = await ctx.api.get_operation({ operation_id: op.id, wait_seconds: TEST_WAIT_SECONDS });
      }
      if (!ctx.alive()) return;
      if (op.status === 'succeeded') notify('success', `Test message delivered to ${e.url}.`);
      else notify('error', op.error?.detail ?? `The test message was not delivered (${op.status}).`);
    } catch (error) {
      if (ctx.alive()) notify('error', error instanceof Error ? error.message : String(error));
    } finally {
      if (button.isConnected) {
        button.disabled = false;
        button.textContent = 'Send test';
      }
    }
    if (!ctx.alive()) return;
    if (state.openId === e.id && state.open) void state.open.reload();
    else showDeliveries(e, false);
  }

  /** Enables a disabled endpoint again; its failure count starts from zero. @param {any} e @param {HTMLButtonElement} b */
  async function enable(e, b) {
    b.disabled = true;
    try {
      const updated = await ctx.api.update_webhook_endpoint({ endpoint_id: e.id, enabled: true });
      if (!ctx.alive()) return;
      state.endpoints = state.endpoints.map((x) => (x.id === updated.id ? updated : x));
      renderList();
      notify('success', `Endpoint ${updated.url} enabled: events are delivered to it again.`);
    } catch (error) {
      if (!ctx.alive()) return;
      b.disabled = false;
      notify('error', error instanceof Error ? error.message : String(error));
    }
  }

  /** @param {any} e */
  function edit(e) {
    editEndpointDialog({
      api: ctx.api,
      endpoint: e,
      onUpdated: (updated) => {
        state.endpoints = state.endpoints.map((x) => (x.id === updated.id ? updated : x));
        renderList();
        notify('success', `Endpoint ${updated.url} saved.`);
      },
    });
  }

  /** @param {any} e */
  async function remove(e) {
    await confirmDialog({
      title: 'Delete webhook endpoint?',
      message: [
        'Events will no longer be sent to ',
        h('code', { text: e.url }),
        '; pending retries stop too. This cannot be undone.',
      ],
      confirmLabel: 'Delete endpoint',
      busyLabel: 'Deleting…',
      action: async () => {
        await ctx.api.delete_webhook_endpoint({ endpoint_id: e.id });
        state.endpoints = state.endpoints.filter((x) => x.id !== e.id);
        if (state.openId === e.id) closeDeliveries();
        renderList();
        notify('success', `Endpoint ${e.url} deleted.`);
      },
    });
  }
}
