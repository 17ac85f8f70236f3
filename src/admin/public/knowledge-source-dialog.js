// One knowledge source in a dialog: where it comes from, its state, and its pages with the passages each was
// split into (list_knowledge_chunks, in page and reading order, a page of chunks at a time).
import { openDialog } from './dialogs.js';
import { banner, h, mount } from './dom.js';
import { fullDate } from './format.js';
import { pageLink } from './knowledge-search.js';
import { sourceStatus } from './knowledge-words.js';
import { loadingState } from './shell.js';

const CHUNKS_PER_PAGE = 100;

/** @param {import('./app.js').PageContext} ctx @param {any} source */
export function sourceDialog(ctx, source) {
  const d = openDialog({ title: source.title || source.url, className: 'knowledge-dialog' });
  const pages = h('div', { class: 'knowledge-pages-list' });
  const more = h('div');
  const close = h('button', {
    type: 'button',
    class: 'btn btn-secondary',
    text: 'Close',
    on: { click: () => d.close() },
  });
  d.setContent(
    [
      details(source),
      h('h3', { class: 'knowledge-dialog-heading', text: 'Pages and passages' }),
      pages,
      more,
      h('div', { class: 'dialog-actions' }, close),
    ],
    close,
  );
  /** @type {Map<string, HTMLElement>} the list of passages of each page shown so far */
  const byPage = new Map();
  let shown = 0;
  mount(pages, loadingState('Loading pages…'));
  void load(null);

  /** @param {string | null} cursor */
  async function load(cursor) {
    try {
      const result = await ctx.api.list_knowledge_chunks({
        source_id: source.id,
        limit: CHUNKS_PER_PAGE,
        cursor: cursor ?? undefined,
      });
      if (!ctx.alive() || !d.dialog.open) return;
      if (!cursor) mount(pages);
      for (const chunk of result.data) add(chunk);
      shown += result.data.length;
      if (!shown) mount(pages, h('p', { class: 'muted', text: 'No passages: nothing has been fetched yet.' }));
      const next = result.has_more ? result.next_cursor : null;
      mount(
        more,
        next
          ? h('button', {
              type: 'button',
              class: 'btn btn-secondary btn-sm',
              text: 'Load more passages',
              on: { click: () => void load(next) },
            })
          : null,
      );
    } catch (error) {
      if (ctx.alive() && d.dialog.open)
        mount(pages, banner('error', error instanceof Error ? error.message : String(error)));
    }
  }

  /** @param {any} chunk */
  function add(chunk) {
    let list = byPage.get(chunk.page_url);
    if (!list) {
      list = h('ol', { class: 'knowledge-chunks' });
      byPage.set(chunk.page_url, list);
      pages.append(
        h(
          'section',
          { class: 'knowledge-page', 'aria-label': chunk.page_title || chunk.page_url },
          h('h4', { class: 'knowledge-page-title' }, pageLink(chunk.page_url, chunk.page_title || chunk.page_url)),
          h('p', { class: 'knowledge-url', text: chunk.page_url }),
          list,
        ),
      );
    }
    list.append(
      h(
        'li',
        { class: 'knowledge-chunk' },
        chunk.heading_path.length
          ? h('p', { class: 'knowledge-heading-path', text: chunk.heading_path.join(' › ') })
          : null,
        h('p', { class: 'knowledge-chunk-text', text: chunk.text }),
      ),
    );
  }
}

/** @param {any} source */
function details(source) {
  const rows = [
    ['Address', pageLink(source.url, source.url)],
    ['Status', sourceStatus(source)],
    ['Pages', `${source.pages_fetched} fetched (at most ${source.max_pages})`],
    ['Passages', String(source.chunks)],
    ['Last fetched', source.fetched_at ? fullDate(source.fetched_at) : 'Never'],
    source.include_paths.length ? ['Only paths', source.include_paths.join(', ')] : null,
    source.exclude_paths.length ? ['Skipped paths', source.exclude_paths.join(', ')] : null,
    source.last_error ? ['Last error', h('span', { class: 'failure', text: source.last_error })] : null,
  ];
  return h(
    'dl',
    { class: 'mail-meta knowledge-meta' },
    rows.flatMap((row) => (row ? [h('dt', { text: /** @type {string} */ (row[0]) }), h('dd', null, row[1])] : [])),
  );
}
