// Leads → Import a CSV file: the file is read in the browser and sent as bulk_import_leads' `csv` text.
// Up to 1,000 rows the API imports it in the request; a larger file becomes an operation, followed with
// a progress bar until it ends. Then the counts, and the rows that were not imported and why, a page at a time.
import { ApiProblem } from './api.js';
import { banner, h, icon, mount, uniqueId } from './dom.js';
import { cardHeader, followOperation, progressBar } from './lead-operation.js';
import { count, plural } from './lead-words.js';

const ERRORS_PAGE = 50;

/**
 * The file input (behind an "Import CSV" button-styled label) and the card that follows an import.
 * @param {import('./app.js').PageContext} ctx
 * @param {{ onImported: () => void, showImport: (importId: string) => void }} options
 */
export function leadImport(ctx, options) {
  const id = uniqueId('import-file');
  const input = /** @type {HTMLInputElement} */ (
    h('input', { type: 'file', id, class: 'file-input', accept: '.csv,text/csv', name: 'csv' })
  );
  const button = h(
    'span',
    { class: 'file-button' },
    input,
    h('label', { class: 'btn btn-primary', for: id }, icon('plus'), h('span', { text: 'Import CSV' })),
  );
  const card = h('section', { class: 'card import-card', 'aria-label': 'Lead import', hidden: true });
  input.addEventListener('change', () => {
    const file = input.files?.[0];
    input.value = '';
    if (file) void run(file);
  });
  let running = false;

  /** @param {File} file */
  async function run(file) {
    if (running) return;
    running = true;
    input.disabled = true;
    card.hidden = false;
    const bar = progressBar(`Importing ${file.name}`, 'rows');
    mount(
      card,
      cardHeader(`Importing ${file.name}`, 'Leads are added as the rows are read.'),
      h('div', { class: 'leads-body' }, bar.element),
    );
    try {
      const text = await file.text();
      const rows = countCsvRows(text);
      bar.update(0, rows);
      const answer = await ctx.api.bulk_import_leads({ csv: text, idempotency_key: crypto.randomUUID() });
      if (!ctx.alive()) return;
      let importId;
      if ('import' in answer) {
        importId = answer.import.id;
      } else {
        const done = await followOperation(ctx, answer, (op) =>
          bar.update(op.progress.done, op.progress.total ?? Math.max(rows, op.progress.done)),
        );
        importId = done.resource?.id;
        if (!importId) throw new Error(done.error?.detail ?? 'The import could not start.');
      }
      const imported = await ctx.api.get_lead_import({ import_id: importId });
      if (!ctx.alive()) return;
      bar.update(imported.counts.total, imported.counts.total);
      showResult(file.name, imported, bar.element);
      options.onImported();
    } catch (error) {
      if (!ctx.alive() || (error instanceof ApiProblem && error.status === 401)) return;
      if (error instanceof DOMException && error.name === 'AbortError') return;
      // The request body has a size limit: a larger file goes in parts, or through the API's csv_url.
      const tooLarge = error instanceof ApiProblem && error.status === 413;
      const message = `${error instanceof Error ? error.message : String(error)}${
        tooLarge ? ' Split the file into smaller ones, or import it from a URL with the API (csv_url).' : ''
      }`;
      mount(
        card,
        cardHeader(`Could not import ${file.name}`, 'Nothing was imported from this file unless the list shows it.'),
        h('div', { class: 'leads-body' }, banner('error', message, { title: 'The import failed' }), againButton()),
      );
    } finally {
      running = false;
      input.disabled = false;
    }
  }

  /** @param {string} fileName @param {any} imported a LeadImport @param {HTMLElement} progress the finished bar */
  function showResult(fileName, imported, progress) {
    const c = imported.counts;
    const outcome =
      imported.status === 'completed'
        ? banner('success', `${plural(c.created + c.updated, 'lead')} imported from ${plural(c.total, 'row')}.`, {
            title: 'Import complete',
          })
        : imported.status === 'completed_with_errors'
          ? banner('warning', `${plural(c.invalid, 'row')} could not be imported; the table below says why.`, {
              title: 'Imported with errors',
            })
          : banner('error', imported.error_message ?? `The import was ${imported.status}.`, {
              title: 'The import did not finish',
            });
    const show = h('a', {
      class: 'btn btn-secondary btn-sm',
      href: `/admin/leads?import_id=${encodeURIComponent(imported.id)}`,
      text: 'Show these leads',
      on: {
        click: (/** @type {MouseEvent} */ event) => {
          event.preventDefault();
          options.showImport(imported.id);
        },
      },
    });
    const errors = h('div', { class: 'import-errors' });
    mount(
      card,
      cardHeader(`Imported ${fileName}`, `Import ${imported.id}`),
      h(
        'div',
        { class: 'leads-body' },
        progress,
        outcome,
        importCounts(c),
        h('div', { class: 'row-actions' }, show, againButton()),
      ),
      errors,
    );
    if (c.invalid > 0) void rowErrors(errors, imported.id);
  }

  /** The rows that were not imported, a page at a time. @param {HTMLElement} slot @param {string} importId */
  async function rowErrors(slot, importId) {
    /** @type {any[]} */
    const rows = [];
    /** @type {string | null} */
    let cursor = null;
    const body = h('tbody');
    const footer = h('div', { class: 'card-footer footer-row' });
    mount(slot, h('p', { class: 'leads-body' }, 'Loading the rows that were not imported…'));
    const table = h(
      'table',
      { class: 'table' },
      h('caption', { class: 'table-caption', text: 'Rows not imported' }),
      h(
        'thead',
        null,
        h(
          'tr',
          null,
          ['Row', 'Line', 'Column', 'Value', 'Problem'].map((t) => h('th', { scope: 'col', text: t })),
        ),
      ),
      body,
    );
    await more(null);

    /** @param {HTMLButtonElement | null} button */
    async function more(button) {
      if (button) {
        button.disabled = true;
        button.textContent = 'Loading…';
      }
      try {
        const page = await ctx.api.list_lead_import_errors({
          import_id: importId,
          limit: ERRORS_PAGE,
          cursor: cursor ?? undefined,
        });
        if (!ctx.alive()) return;
        rows.push(...page.data);
        cursor = page.has_more ? page.next_cursor : null;
        body.append(...page.data.map(errorRow));
        const next = cursor
          ? /** @type {HTMLButtonElement} */ (
              h('button', { type: 'button', class: 'btn btn-secondary btn-sm', text: 'Load more errors' })
            )
          : null;
        next?.addEventListener('click', () => void more(next));
        mount(footer, h('span', { text: `${plural(rows.length, 'row error')}${cursor ? ' shown' : ''}` }), next);
        mount(slot, h('div', { class: 'table-wrap' }, table), footer);
      } catch (error) {
        if (!ctx.alive() || (error instanceof ApiProblem && error.status === 401)) return;
        const message = error instanceof Error ? error.message : String(error);
        if (button) {
          button.disabled = false;
          button.textContent = 'Load more errors';
        }
        slot.append(
          h('div', { class: 'leads-body' }, banner('error', message, { title: 'Could not load the row errors' })),
        );
      }
    }
  }

  function againButton() {
    return h('button', {
      type: 'button',
      class: 'btn btn-secondary btn-sm',
      text: 'Import another file',
      on: { click: () => input.click() },
    });
  }

  return { button, card, choose: () => input.click() };
}

/** @param {{ total: number, created: number, updated: number, skipped_duplicate: number, invalid: number }} c */
function importCounts(c) {
  const items = [
    ['Rows', c.total],
    ['Created', c.created],
    ['Updated', c.updated],
    ['Skipped (already there)', c.skipped_duplicate],
    ['Not imported', c.invalid],
  ];
  return h(
    'dl',
    { class: 'import-counts' },
    items.map(([label, n]) =>
      h('div', { class: 'import-count' }, h('dt', { text: String(label) }), h('dd', { text: count(Number(n)) })),
    ),
  );
}

/** @param {any} e a LeadImportError */
function errorRow(e) {
  return h(
    'tr',
    { dataset: { row: String(e.row) } },
    h('th', { scope: 'row', text: String(e.row) }),
    h('td', { text: e.line === null ? '—' : String(e.line) }),
    h('td', null, e.column ? h('code', { text: e.column }) : h('span', { class: 'muted', text: '—' })),
    h('td', { class: 'cell-value', text: e.value ?? '—' }),
    h('td', null, h('span', { class: 'cell-title', text: e.message }), h('code', { class: 'cell-sub', text: e.code })),
  );
}

/**
 * The data rows of a CSV text (records after the header, blank lines not counted), so the bar has a total
 * while the API reads the file: a newline inside quotes does not end a record.
 * @param {string} text
 */
export function countCsvRows(text) {
  let records = 0;
  let quoted = false;
  let content = false;
  for (let i = 0; i < text.length; i += 1) {
    const c = text.charCodeAt(i);
    if (c === 34) {
      quoted = !quoted;
      content = true;
    } else if ((c === 10 || c === 13) && !quoted) {
      if (content) records += 1;
      content = false;
    } else content = true;
  }
  if (content) records += 1;
  return Math.max(0, records - 1);
}
