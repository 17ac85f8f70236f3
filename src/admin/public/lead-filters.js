// The leads list's filter bar: a search (submitted, so each search is one request), status and stage
// choices, a tag, and the import a link named (?import_id=imp_…) with the way back to every import.
import { h } from './dom.js';
import { input, select } from './forms.js';
import { leadsUrl, stageChoices, statusChoices } from './lead-words.js';

/**
 * The bar's controls for `filter`; each change calls `apply` with the new filter.
 * @param {import('./lead-words.js').LeadFilter} filter
 * @param {(filter: import('./lead-words.js').LeadFilter) => void} apply
 */
export function leadFilters(filter, apply) {
  const search = input({
    type: 'search',
    id: 'lead-search',
    name: 'q',
    value: filter.q,
    placeholder: 'Name, email or company',
  });
  const form = h(
    'form',
    { class: 'search-form' },
    h('label', { class: 'label', for: search.id, text: 'Search' }),
    search,
    h('button', { type: 'submit', class: 'btn btn-secondary btn-sm', text: 'Search' }),
  );
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    apply({ ...filter, q: search.value.trim() });
  });
  // The field's clear button (×) shows every lead again.
  search.addEventListener('search', () => {
    if (!search.value && filter.q) apply({ ...filter, q: '' });
  });
  const tag = input({ type: 'text', id: 'lead-tag', name: 'tag', value: filter.tag, class: 'input tag-input' });
  tag.addEventListener('change', () => apply({ ...filter, tag: tag.value.trim() }));
  const byImport = filter.importId
    ? h(
        'span',
        { class: 'filter-chip' },
        'Import ',
        h('code', { text: filter.importId }),
        h('a', {
          class: 'link',
          href: leadsUrl({ ...filter, importId: '' }),
          text: 'Show every import',
          on: {
            click: (/** @type {MouseEvent} */ event) => {
              event.preventDefault();
              apply({ ...filter, importId: '' });
            },
          },
        }),
      )
    : null;
  return [
    form,
    choice('status', 'Status', [{ value: '', label: 'All statuses' }, ...statusChoices]),
    choice('stage', 'Stage', [{ value: '', label: 'All stages' }, ...stageChoices]),
    labelled('Tag', tag),
    byImport,
  ].filter((el) => el !== null);

  /** @param {'status' | 'stage'} name @param {string} label @param {Array<{ value: string, label: string }>} choices */
  function choice(name, label, choices) {
    const control = select({ name, id: `lead-${name}`, class: 'input select select-sm' }, choices, filter[name]);
    control.addEventListener('change', () => apply({ ...filter, [name]: control.value }));
    return labelled(label, control);
  }
}

/** @param {string} label @param {HTMLElement} control */
function labelled(label, control) {
  return h('span', { class: 'filter-field' }, h('label', { class: 'label', for: control.id, text: label }), control);
}
