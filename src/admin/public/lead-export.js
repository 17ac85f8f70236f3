// Leads → Export: export_leads snapshots the leads matching the list's filters into a CSV as an operation;
// the page follows it with a progress bar, then fetches the file through download_lead_export (the SDK
// answers the CSV text) and offers it as a link to a Blob, with a file name, until the page is left.
import { ApiProblem } from './api.js';
import { banner, h, icon, mount } from './dom.js';
import { cardHeader, followOperation, progressBar } from './lead-operation.js';
import { isFiltered, leadQuery, plural } from './lead-words.js';

/**
 * @param {import('./app.js').PageContext} ctx
 * @param {() => import('./lead-words.js').LeadFilter} currentFilter
 */
export function leadExport(ctx, currentFilter) {
  const button = /** @type {HTMLButtonElement} */ (
    h('button', { type: 'button', class: 'btn btn-secondary' }, icon('external'), h('span', { text: 'Export CSV' }))
  );
  const card = h('section', { class: 'card export-card', 'aria-label': 'Lead export', hidden: true });
  /** @type {string | null} */
  let blobUrl = null;
  ctx.signal.addEventListener('abort', () => {
    if (blobUrl) URL.revokeObjectURL(blobUrl);
  });
  button.addEventListener('click', () => void run());

  async function run() {
    const filter = currentFilter();
    button.disabled = true;
    card.hidden = false;
    const what = isFiltered(filter) ? 'the leads matching the filters' : 'every lead';
    const bar = progressBar('Exporting leads', 'leads');
    mount(
      card,
      cardHeader('Exporting leads', `A CSV file of ${what}.`),
      h('div', { class: 'leads-body' }, bar.element),
    );
    try {
      const started = await ctx.api.export_leads({ ...leadQuery(filter), idempotency_key: crypto.randomUUID() });
      const done = await followOperation(ctx, started, (op) => bar.update(op.progress.done, op.progress.total));
      const exportId = done.resource?.id;
      if (done.status !== 'succeeded' || !exportId) throw new Error(done.error?.detail ?? `The export ${done.status}.`);
      const [ready, csv] = await Promise.all([
        ctx.api.get_lead_export({ export_id: exportId }),
        ctx.api.download_lead_export({ export_id: exportId }),
      ]);
      if (!ctx.alive()) return;
      if (blobUrl) URL.revokeObjectURL(blobUrl);
      // The API's file starts with a byte order mark (spreadsheets need it to read UTF-8); decoding drops it.
      blobUrl = URL.createObjectURL(new Blob([`\uFEFF${csv}`], { type: 'text/csv;charset=utf-8' }));
      const fileName = `leads-${new Date().toISOString().slice(0, 10)}.csv`;
      bar.update(ready.row_count, ready.row_count);
      mount(
        card,
        cardHeader('Export ready', `${plural(ready.row_count, 'lead')}, ${what}.`),
        h(
          'div',
          { class: 'leads-body' },
          h(
            'a',
            { class: 'btn btn-primary download-link', href: blobUrl, download: fileName },
            h('span', { text: `Download ${fileName}` }),
          ),
        ),
      );
    } catch (error) {
      if (!ctx.alive() || (error instanceof ApiProblem && error.status === 401)) return;
      if (error instanceof DOMException && error.name === 'AbortError') return;
      const message = error instanceof Error ? error.message : String(error);
      mount(
        card,
        cardHeader('Could not export leads', 'Try again; nothing was lost.'),
        h('div', { class: 'leads-body' }, banner('error', message, { title: 'The export failed' })),
      );
    } finally {
      button.disabled = false;
    }
  }

  return { button, card };
}
