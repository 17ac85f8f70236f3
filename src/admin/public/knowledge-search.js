// The search box over the workspace's knowledge: the best passages for a query, each with the page it comes
// from. The API marks the matched words with ** in the snippet; they become <mark> elements here, built as DOM
// nodes (never parsed as HTML), so a page's text cannot inject markup.
import { ApiProblem } from './api.js';
import { banner, h, mount } from './dom.js';
import { input } from './forms.js';
import { loadingState } from './shell.js';

const MARK = '**';

/**
 * The snippet as text nodes and <mark> elements. An odd number of markers leaves the last one unpaired:
 * it stays as the text it is.
 * @param {string} snippet
 * @returns {Node[]}
 */
export function snippetNodes(snippet) {
  const parts = snippet.split(MARK);
  if (parts.length % 2 === 0) {
    const last = /** @type {string} */ (parts.pop());
    parts[parts.length - 1] += MARK + last;
  }
  /** @type {Node[]} */
  const nodes = [];
  parts.forEach((text, i) => {
    if (!text) return;
    nodes.push(i % 2 === 1 ? h('mark', { text }) : document.createTextNode(text));
  });
  return nodes;
}

/**
 * A link to a page the crawler fetched; only http(s) addresses become links, anything else stays text.
 * @param {string} url @param {string} text
 */
export function pageLink(url, text) {
  return /^https?:\/\//i.test(url)
    ? h('a', { class: 'link', href: url, target: '_blank', rel: 'noopener noreferrer', text })
    : h('span', { text });
}

/** @param {import('./app.js').PageContext} ctx */
export function searchCard(ctx) {
  const query = input({
    type: 'search',
    name: 'query',
    id: 'knowledge-query',
    required: true,
    maxlength: '500',
    autocomplete: 'off',
    placeholder: 'e.g. pricing or "night landing"',
  });
  const submit = h('button', { type: 'submit', class: 'btn btn-secondary', text: 'Search' });
  const results = h('div', { class: 'knowledge-results', 'aria-live': 'polite' });
  const form = h(
    'form',
    { class: 'knowledge-search', role: 'search', 'aria-label': 'Knowledge' },
    h('label', { class: 'label', for: query.id, text: 'Search knowledge' }),
    h('div', { class: 'knowledge-search-row' }, query, submit),
  );
  let generation = 0;
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const text = query.value.trim();
    if (!text) return;
    generation += 1;
    const mine = generation;
    mount(results, loadingState('Searching…'));
    try {
      const found = await ctx.api.search_knowledge({ query: text, limit: 10 });
      if (ctx.alive() && mine === generation) showResults(text, found.data);
    } catch (error) {
      if (!ctx.alive() || mine !== generation) return;
      const message = error instanceof ApiProblem || error instanceof Error ? error.message : String(error);
      mount(results, banner('error', message, { title: 'The search failed' }));
    }
  });

  /** @param {string} text @param {any[]} found */
  function showResults(text, found) {
    // The same page ingested by two sources (a site and one of its pages) gives the same passage twice.
    const seen = new Set();
    const hits = found.filter((hit) => {
      const key = `${hit.page_url}\n${hit.snippet}`;
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    });
    if (!hits.length) {
      mount(results, h('p', { class: 'knowledge-results-summary muted', text: `No passages match “${text}”.` }));
      return;
    }
    const summary = `${hits.length} ${hits.length === 1 ? 'passage' : 'passages'} for “${text}”`;
    mount(
      results,
      h('p', { class: 'knowledge-results-summary', text: summary }),
      h('ol', { class: 'knowledge-hits', 'aria-label': 'Matching passages' }, hits.map(hitItem)),
    );
  }

  return h(
    'section',
    { class: 'card knowledge-card', 'aria-labelledby': 'knowledge-search-title' },
    h(
      'div',
      { class: 'card-header' },
      h(
        'div',
        null,
        h('h2', { class: 'card-title', id: 'knowledge-search-title', text: 'Search' }),
        h('p', {
          class: 'card-description',
          text: 'Find what the agents can quote: quotes for a phrase, -word to leave a word out, "or" for either.',
        }),
      ),
    ),
    h('div', { class: 'knowledge-card-body' }, form, results),
  );
}

/** @param {any} hit */
function hitItem(hit) {
  const title = hit.page_title || hit.page_url;
  return h(
    'li',
    { class: 'knowledge-hit', dataset: { chunkId: hit.chunk_id } },
    h(
      'p',
      { class: 'knowledge-hit-page' },
      pageLink(hit.page_url, title),
      h('span', { class: 'knowledge-url', text: hit.page_url }),
    ),
    hit.heading_path.length ? h('p', { class: 'knowledge-heading-path', text: hit.heading_path.join(' › ') }) : null,
    h('p', { class: 'knowledge-snippet' }, snippetNodes(hit.snippet)),
  );
}
