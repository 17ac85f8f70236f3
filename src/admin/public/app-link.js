// A link to another page of the panel: a plain click moves there in the page (ctx.navigate); a modified
// click (new tab, new window) keeps the browser's own behaviour, since the href is the page's real address.
import { h } from './dom.js';

/**
 * @param {(path: string) => void} navigate
 * @param {string} href a path with an optional query, e.g. /admin/sent-messages?sequence_id=seq_…
 * @param {string} text
 * @param {string} [className]
 */
export function appLink(navigate, href, text, className = 'link') {
  return h('a', {
    class: className,
    href,
    text,
    on: {
      click: (/** @type {MouseEvent} */ event) => {
        if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
        event.preventDefault();
        navigate(href);
      },
    },
  });
}
