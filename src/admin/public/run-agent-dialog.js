// Starting a run of an agent from the store, as an agent does with list_agents_in_store and run_agent: pick the
// agent, fill in its input (a form drawn from the agent's input_schema: text, numbers, choices, lists of ids), run.
import { ApiProblem } from './api.js';
import { busy, dialogForm, openDialog } from './dialogs.js';
import { banner, h, mount } from './dom.js';
import { applyFieldErrors, field, input, select, submitButton } from './forms.js';

/**
 * @typedef {{ type?: string | string[], enum?: unknown[], description?: string, default?: unknown, items?: JsonSchema,
 *   minimum?: number, maximum?: number, maxLength?: number, properties?: Record<string, JsonSchema>, required?: string[] }} JsonSchema
 */

/** @param {string} name */
const labelOf = (name) => (name.charAt(0).toUpperCase() + name.slice(1)).replaceAll('_', ' ');

/** @param {JsonSchema} schema */
const typeOf = (schema) => (Array.isArray(schema.type) ? schema.type.find((t) => t !== 'null') : schema.type);

/**
 * One input per property the form can draw; objects (and anything else) take JSON text.
 * @param {string} name @param {JsonSchema} schema @param {boolean} required
 * @returns {{ element: HTMLElement, read: () => unknown }}
 */
function propertyField(name, schema, required) {
  const type = typeOf(schema);
  const hint = schema.description ?? undefined;
  if (schema.enum) {
    const choices = schema.enum.map((v) => ({ value: String(v), label: String(v) }));
    if (!required)
      choices.unshift({ value: '', label: schema.default !== undefined ? `Default (${schema.default})` : '—' });
    const control = select({ name }, choices, required ? String(schema.default ?? schema.enum[0]) : '');
    return { element: field({ label: labelOf(name), control, hint }), read: () => control.value || undefined };
  }
  if (type === 'integer' || type === 'number') {
    const control = input({
      type: 'number',
      name,
      required,
      min: schema.minimum === undefined ? null : String(schema.minimum),
      max: schema.maximum === undefined ? null : String(schema.maximum),
      placeholder: schema.default === undefined ? '' : String(schema.default),
    });
    return {
      element: field({ label: labelOf(name), control, hint }),
      read: () => (control.value === '' ? undefined : Number(control.value)),
    };
  }
  if (type === 'string') {
    const long = (schema.maxLength ?? 0) > 200;
    const control = long
      ? h('textarea', { class: 'input textarea', name, rows: '3', required, maxlength: String(schema.maxLength) })
      : input({ type: 'text', name, required, maxlength: schema.maxLength ? String(schema.maxLength) : null });
    if (schema.default !== undefined) control.setAttribute('placeholder', String(schema.default));
    const text = /** @type {HTMLInputElement | HTMLTextAreaElement} */ (control);
    return { element: field({ label: labelOf(name), control, hint }), read: () => text.value.trim() || undefined };
  }
  if (type === 'array' && typeOf(schema.items ?? {}) === 'string') {
    const control = input({ type: 'text', name, required, placeholder: 'Comma-separated' });
    return {
      element: field({ label: labelOf(name), control, hint }),
      read: () => {
        const items = control.value
          .split(',')
          .map((v) => v.trim())
          .filter(Boolean);
        return items.length ? items : undefined;
      },
    };
  }
  const control = /** @type {HTMLTextAreaElement} */ (
    h('textarea', { class: 'input textarea input-mono', name, rows: '3', required, placeholder: 'JSON, e.g. {}' })
  );
  return {
    element: field({ label: labelOf(name), control, hint }),
    read: () => {
      if (!control.value.trim()) return undefined;
      try {
        return JSON.parse(control.value);
      } catch {
        throw new Error(`${labelOf(name)}: this is not valid JSON.`);
      }
    },
  };
}

/**
 * @param {import('./app.js').PageContext} ctx
 * @param {{ onStarted: (run: { id: string }) => void, agentSlug?: string }} options
 */
export async function runAgentDialog(ctx, options) {
  const d = openDialog({ title: 'Run an agent', className: 'dialog-wide' });
  d.setContent([h('p', { class: 'dialog-text', text: 'Loading the agent store…' })]);
  /** @type {any[]} */
  let agents;
  try {
    agents = (await ctx.api.list_agents_in_store({})).data;
  } catch (error) {
    d.setContent([banner('error', error instanceof Error ? error.message : String(error))]);
    return;
  }
  const picked = agents.find((a) => a.slug === options.agentSlug) ?? agents[0];
  const agent = select(
    { name: 'agent_id' },
    agents.map((a) => ({ value: a.id, label: a.name })),
    picked?.id ?? '',
  );
  const about = h('p', { class: 'hint' });
  const inputsSlot = h('div', { class: 'dialog-form' });
  /** @type {Array<{ name: string, read: () => unknown }>} */
  let readers = [];
  const drawInputs = () => {
    const chosen = agents.find((a) => a.id === agent.value);
    if (!chosen) return;
    about.textContent = `${chosen.description}${chosen.required_connectors.length ? ` Needs: ${chosen.required_connectors.join(', ')}.` : ''}`;
    const schema = /** @type {JsonSchema} */ (chosen.input_schema);
    const required = new Set(schema.required ?? []);
    const fields = Object.entries(schema.properties ?? {}).map(([name, property]) => ({
      name,
      ...propertyField(name, property, required.has(name)),
    }));
    readers = fields;
    mount(
      inputsSlot,
      fields.map((f) => f.element),
    );
  };
  agent.addEventListener('change', drawInputs);
  drawInputs();
  const submit = submitButton('Run agent');
  const { form, errorSlot } = dialogForm(d, {
    fields: [field({ label: 'Agent', control: agent }), about, inputsSlot],
    submit,
  });
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const run = await busy(submit, errorSlot, 'Starting…', async () => {
      /** @type {Record<string, unknown>} */
      const body = {};
      for (const r of readers) {
        const value = r.read();
        if (value !== undefined) body[r.name] = value;
      }
      try {
        return await ctx.api.run_agent({ agent_id: agent.value, input: body });
      } catch (error) {
        throw error instanceof ApiProblem ? new Error(applyFieldErrors(form, error)) : error;
      }
    });
    if (!run) return;
    d.close();
    options.onStarted(run);
  });
  d.setContent([form]);
}
