// PLACEHOLDER (issue 31 branch): replaced by the page's helper before merge.
import { pageHeader } from './shell.js';

/** @param {HTMLElement} main @param {import('./app.js').PageContext} ctx */
export function webhooksPage(main, ctx) {
  void ctx;
  main.replaceChildren(pageHeader({ title: 'Webhooks', description: 'Coming in this branch.' }));
}
