// PLACEHOLDER (issue 31 branch): replaced by the page's helper before merge.
import { pageHeader } from './shell.js';

/** @param {HTMLElement} main @param {import('./app.js').PageContext} ctx */
export function sequencesPage(main, ctx) {
  void ctx;
  main.replaceChildren(pageHeader({ title: 'Sequences', description: 'Coming in this branch.' }));
}

/** @param {HTMLElement} main @param {import('./app.js').PageContext} ctx */
export function sequencePage(main, ctx) {
  void ctx;
  main.replaceChildren(pageHeader({ title: 'Sequences', description: 'Coming in this branch.' }));
}
