// Following long work (a lead import or export) as the API offers it: get_operation with wait_seconds
// answers as soon as the status or progress changes, so the page asks again at once instead of polling
// on a timer. And the progress bar that shows it, labelled, with "1,234 of 5,000 rows" beside it.
import { h, uniqueId } from './dom.js';
import { count } from './lead-words.js';

const FINISHED = new Set(['succeeded', 'failed', 'cancelled']);

/**
 * Asks for the operation until it finishes, telling `onProgress` each change. Rejects when a request fails
 * (the page may offer to follow it again) or the page is left.
 * @param {import('./app.js').PageContext} ctx
 * @param {any} operation as bulk_import_leads or export_leads answered it
 * @param {(operation: any) => void} onProgress
 * @returns {Promise<any>} the finished operation
 */
export async function followOperation(ctx, operation, onProgress) {
  let current = operation;
  onProgress(current);
  while (!FINISHED.has(current.status)) {
    current = await ctx.api.get_operation({ operation_id: current.id, wait_seconds: 25 });
    if (!ctx.alive()) throw new DOMException('The page was left.', 'AbortError');
    onProgress(current);
  }
  return current;
}

/**
 * A labelled <progress> with its count in words. `update(done, total)`: a null total leaves the bar
 * indeterminate (it moves without a value) and says only how many are done.
 * @param {string} label
 * @param {string} unit plural noun, "rows"
 */
export function progressBar(label, unit) {
  const id = uniqueId('progress');
  const bar = /** @type {HTMLProgressElement} */ (h('progress', { id, class: 'progress' }));
  const text = h('span', { class: 'progress-text', id: `${id}-text` });
  bar.setAttribute('aria-describedby', text.id);
  const labelEl = h('label', { class: 'label', for: id, text: label });
  return {
    element: h('div', { class: 'progress-field' }, labelEl, bar, text),
    /** @param {string} words */
    setLabel(words) {
      labelEl.textContent = words;
    },
    /** @param {number} done @param {number | null} total */
    update(done, total) {
      if (total !== null && total > 0) {
        bar.max = total;
        bar.value = Math.min(done, total);
        text.textContent = `${count(done)} of ${count(total)} ${unit}`;
      } else {
        bar.removeAttribute('value');
        text.textContent = `${count(done)} ${unit}`;
      }
    },
  };
}

/** The title and description at the top of an import's or export's card. @param {string} title @param {string} description */
export function cardHeader(title, description) {
  return h(
    'div',
    { class: 'card-header' },
    h(
      'div',
      null,
      h('h2', { class: 'card-title', text: title }),
      h('p', { class: 'card-description', text: description }),
    ),
  );
}
