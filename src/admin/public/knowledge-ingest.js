// The ingest form: a URL (and how far to follow its links) becomes a knowledge source. The API refuses what it
// will not fetch (a private or metadata address, a non-http scheme) before anything starts; that reason is shown
// in the form. An accepted ingest is followed to its end with a progress bar, then the new source is offered.
import { ApiProblem } from './api.js';
import { badge, banner, h, icon, mount } from './dom.js';
import { applyFieldErrors, field, input, submitButton } from './forms.js';
import { followOperation } from './knowledge-follow.js';

/**
 * @param {import('./app.js').PageContext} ctx
 * @param {{ reloadSource: (id: string) => Promise<any>, view: (source: any) => void }} page
 */
export function ingestCard(ctx, page) {
  const url = input({
    type: 'text',
    inputmode: 'url',
    name: 'url',
    required: true,
    maxlength: '2048',
    autocomplete: 'url',
    spellcheck: 'false',
    placeholder: 'https://www.example.com/',
  });
  const maxPages = input({
    type: 'number',
    name: 'max_pages',
    min: '1',
    max: '50',
    value: '1',
    class: 'input knowledge-pages',
  });
  const include = input({ type: 'text', name: 'include_paths', autocomplete: 'off', placeholder: '/blog, /docs' });
  const exclude = input({ type: 'text', name: 'exclude_paths', autocomplete: 'off', placeholder: '/careers' });
  const errorSlot = h('div', { class: 'form-error' });
  const progress = h('div', { class: 'knowledge-progress', role: 'status', 'aria-live': 'polite' });
  const submit = submitButton('Ingest');
  const fieldset = /** @type {HTMLFieldSetElement} */ (
    h(
      'fieldset',
      { class: 'knowledge-fieldset' },
      field({ label: 'Website or page URL', control: url }),
      field({
        label: 'Pages to fetch',
        control: maxPages,
        hint: '1 fetches just this page; up to 50 follows links on the same site.',
      }),
      h(
        'details',
        { class: 'knowledge-options' },
        h('summary', { text: 'Path filters' }),
        field({
          label: 'Only follow paths starting with',
          control: include,
          hint: 'Comma-separated, e.g. /blog, /docs',
        }),
        field({ label: 'Never follow paths starting with', control: exclude, hint: 'Comma-separated' }),
      ),
    )
  );
  const form = /** @type {HTMLFormElement} */ (
    h('form', { class: 'knowledge-form', novalidate: true }, fieldset, errorSlot, h('div', null, submit), progress)
  );
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    void start();
  });

  async function start() {
    mount(errorSlot);
    mount(progress);
    const body = request();
    if (!body) return;
    fieldset.disabled = true;
    submit.disabled = true;
    submit.textContent = 'Starting…';
    try {
      const operation = await ctx.api.ingest_url_into_knowledge(body);
      if (!ctx.alive()) return;
      await follow(operation);
    } catch (error) {
      if (!ctx.alive()) return;
      const message = error instanceof ApiProblem ? refusal(error) : String(error);
      mount(errorSlot, banner('error', message, { title: 'This URL cannot be ingested' }));
    } finally {
      fieldset.disabled = false;
      submit.disabled = false;
      submit.textContent = 'Ingest';
    }
  }

  /**
   * The problem's reason, with the fields it names marked invalid; a field's message is added only when the
   * reason does not already say it (a refused address names itself in both).
   * @param {ApiProblem} problem
   */
  function refusal(problem) {
    applyFieldErrors(form, problem);
    const extra = problem.errors.filter((e) => !problem.message.includes(e.message));
    return [problem.message, ...extra.map((e) => `${e.field ?? 'request'}: ${e.message}`)].join(' ');
  }

  /** The request body, or null (with the reason shown) when the form is not filled in. */
  function request() {
    for (const el of form.querySelectorAll('[aria-invalid]')) el.removeAttribute('aria-invalid');
    let value = url.value.trim();
    if (!value) {
      url.setAttribute('aria-invalid', 'true');
      mount(errorSlot, banner('error', 'Enter the address of a web page.'));
      url.focus();
      return null;
    }
    // People type "example.com": the scheme is the one thing we can safely add for them.
    if (!/^[a-z][a-z0-9+.-]*:/i.test(value)) value = `https://${value}`;
    url.value = value;
    const paths = (/** @type {HTMLInputElement} */ control) =>
      control.value
        .split(',')
        .map((p) => p.trim())
        .filter(Boolean);
    const includePaths = paths(include);
    const excludePaths = paths(exclude);
    return {
      url: value,
      max_pages: Number(maxPages.value) || 1,
      ...(includePaths.length ? { include_paths: includePaths } : {}),
      ...(excludePaths.length ? { exclude_paths: excludePaths } : {}),
    };
  }

  /** @param {any} operation */
  async function follow(operation) {
    submit.textContent = 'Ingesting…';
    const sourceId = operation.resource?.id;
    showProgress(operation);
    if (sourceId) await page.reloadSource(sourceId).catch(() => null);
    const done = await followOperation(ctx, operation, (now) => {
      if (!ctx.alive()) return;
      showProgress(now);
      if (sourceId) void page.reloadSource(sourceId).catch(() => null);
    });
    if (!ctx.alive()) return;
    const source = sourceId ? await page.reloadSource(sourceId).catch(() => null) : null;
    if (!ctx.alive()) return;
    if (done.status === 'succeeded') {
      form.reset();
      finished(source);
    } else {
      mount(progress);
      const reason = done.error?.detail ?? (done.status === 'cancelled' ? 'The ingest was cancelled.' : 'It failed.');
      mount(errorSlot, banner('error', reason, { title: 'The ingest failed' }));
    }
  }

  /** @param {any} operation */
  function showProgress(operation) {
    const { done, total } = operation.progress;
    const waiting = operation.status === 'queued';
    const text = waiting ? 'Waiting to start…' : `Fetching pages: ${done}${total ? ` of up to ${total}` : ''}`;
    const bar = h('progress', {
      class: 'knowledge-progress-bar',
      max: String(total || 1),
      'aria-label': 'Ingest progress',
    });
    if (!waiting) /** @type {HTMLProgressElement} */ (bar).value = done;
    mount(progress, h('p', { class: 'knowledge-progress-text', text }), bar);
  }

  /** @param {any} source */
  function finished(source) {
    if (!source) {
      mount(progress, banner('success', 'The page was ingested.'));
      return;
    }
    const name = source.title || source.url;
    const counts = `${source.pages_fetched} ${source.pages_fetched === 1 ? 'page' : 'pages'}, ${source.chunks} ${source.chunks === 1 ? 'passage' : 'passages'}`;
    const view = h(
      'button',
      { type: 'button', class: 'btn btn-secondary btn-sm', on: { click: () => page.view(source) } },
      icon('book'),
      'View pages',
    );
    mount(
      progress,
      h(
        'div',
        { class: 'knowledge-done' },
        badge('Ready', 'green'),
        h('span', null, 'Ingested ', h('strong', { text: name }), `: ${counts}.`),
        view,
      ),
    );
  }

  return {
    card: h(
      'section',
      { class: 'card knowledge-card', 'aria-labelledby': 'knowledge-ingest-title' },
      h(
        'div',
        { class: 'card-header' },
        h(
          'div',
          null,
          h('h2', { class: 'card-title', id: 'knowledge-ingest-title', text: 'Ingest a URL' }),
          h('p', {
            class: 'card-description',
            text: 'The page’s text is split into passages the agents search when they write. robots.txt is obeyed.',
          }),
        ),
      ),
      h('div', { class: 'knowledge-card-body' }, form),
    ),
    focus: () => url.focus(),
  };
}
