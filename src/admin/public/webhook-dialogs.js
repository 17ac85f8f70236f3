// The webhook endpoint dialogs: create (its signing secret shown once, then gone with the dialog) and edit
// (only changed fields are sent). The API's field errors appear next to their fields.
import { ApiProblem } from './api.js';
import { busy, dialogForm, openDialog, secretField } from './dialogs.js';
import { banner, h } from './dom.js';
import { fieldWithError, showFieldErrors } from './field-errors.js';
import { input, submitButton } from './forms.js';

/** "api_key.*, member.added" → ['api_key.*', 'member.added']. @param {string} text */
export function parseEventTypes(text) {
  return text
    .split(/[\s,]+/)
    .map((t) => t.trim())
    .filter(Boolean);
}

/**
 * @param {{ url?: string, description?: string, event_types?: string[], status?: string } | null} endpoint
 * @param {boolean} editing
 */
function endpointFields(endpoint, editing) {
  const url = input({
    type: 'url',
    name: 'url',
    required: true,
    autocomplete: 'off',
    spellcheck: 'false',
    placeholder: 'https://hooks.example.com/agent-platform',
    value: endpoint?.url ?? '',
  });
  const description = input({
    type: 'text',
    name: 'description',
    autocomplete: 'off',
    placeholder: 'e.g. CRM sync',
    value: endpoint?.description ?? '',
  });
  const types = input({
    type: 'text',
    name: 'event_types',
    class: 'input input-mono',
    autocomplete: 'off',
    spellcheck: 'false',
    value: (endpoint?.event_types ?? ['*']).join(', '),
  });
  const enabled = /** @type {HTMLInputElement} */ (
    h('input', { type: 'checkbox', name: 'enabled', checked: endpoint?.status !== 'disabled' })
  );
  const fields = [
    fieldWithError({
      label: 'URL',
      control: url,
      hint: 'Events are POSTed here as JSON, signed per Standard Webhooks (webhook-id, webhook-timestamp, webhook-signature headers).',
    }),
    fieldWithError({ label: 'Description (optional)', control: description }),
    fieldWithError({
      label: 'Event types',
      control: types,
      hint: 'Separated by commas: resource.action (member.added), resource.* (lead.*) or * for every event.',
    }),
    editing
      ? h(
          'div',
          { class: 'field' },
          h('label', { class: 'checkbox-label' }, enabled, h('span', { text: 'Enabled: deliver events to this URL' })),
          h('p', { class: 'field-error', dataset: { errorFor: 'enabled' } }),
        )
      : null,
  ];
  return { url, description, types, enabled, fields };
}

/**
 * @param {{ api: import('./api.js').Api, onCreated: (endpoint: any) => void }} options
 */
export function createEndpointDialog(options) {
  const d = openDialog({ title: 'Add webhook endpoint' });
  const f = endpointFields(null, false);
  const submit = submitButton('Add endpoint');
  const { form, errorSlot } = dialogForm(d, { fields: f.fields, submit, novalidate: true });
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const created = await busy(submit, errorSlot, 'Adding…', async () => {
      try {
        const description = f.description.value.trim();
        return await options.api.create_webhook_endpoint({
          url: f.url.value.trim(),
          event_types: parseEventTypes(f.types.value),
          ...(description ? { description } : {}),
        });
      } catch (error) {
        throw error instanceof ApiProblem ? new Error(showFieldErrors(form, error)) : error;
      }
    });
    if (!created) return;
    const { secret, ...endpoint } = created;
    options.onCreated(endpoint);
    showSecret(d, endpoint.url, secret);
  });
  d.setContent([form]);
}

/** @param {import('./dialogs.js').DialogHandle} d @param {string} url @param {string} secret */
function showSecret(d, url, secret) {
  d.setTitle('Save the signing secret');
  const done = h('button', { type: 'button', class: 'btn btn-primary', text: 'Done', on: { click: () => d.close() } });
  d.setContent(
    [
      h('p', { class: 'dialog-text' }, 'Deliveries to ', h('code', { text: url }), ' are signed with this secret.'),
      banner(
        'warning',
        'Copy it now into the receiver’s configuration to verify signatures. You will not see this secret again.',
        { title: 'This is the only time the secret is shown' },
      ),
      secretField({ label: 'Signing secret', value: secret, name: 'signing-secret' }),
      h('div', { class: 'dialog-actions' }, done),
    ],
    null,
  );
}

/**
 * @param {{ api: import('./api.js').Api, endpoint: any, onUpdated: (endpoint: any) => void }} options
 */
export function editEndpointDialog(options) {
  const { endpoint } = options;
  const d = openDialog({ title: 'Edit webhook endpoint' });
  const f = endpointFields(endpoint, true);
  const submit = submitButton('Save changes');
  const { form, errorSlot } = dialogForm(d, { fields: f.fields, submit, novalidate: true });
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    /** @type {{ url?: string, description?: string, event_types?: string[], enabled?: boolean }} */
    const patch = {};
    const url = f.url.value.trim();
    const types = parseEventTypes(f.types.value);
    if (url !== endpoint.url) patch.url = url;
    if (f.description.value.trim() !== endpoint.description) patch.description = f.description.value.trim();
    if (types.join(',') !== endpoint.event_types.join(',')) patch.event_types = types;
    if (f.enabled.checked !== (endpoint.status === 'enabled')) patch.enabled = f.enabled.checked;
    if (!Object.keys(patch).length) {
      d.close();
      return;
    }
    const updated = await busy(submit, errorSlot, 'Saving…', async () => {
      try {
        return await options.api.update_webhook_endpoint({ endpoint_id: endpoint.id, ...patch });
      } catch (error) {
        throw error instanceof ApiProblem ? new Error(showFieldErrors(form, error)) : error;
      }
    });
    if (!updated) return;
    options.onUpdated(updated);
    d.close();
  });
  d.setContent([form]);
}
