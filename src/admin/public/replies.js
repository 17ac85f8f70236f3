// Outreach → Replies: what leads sent back to the workspace's sequences (replies, out-of-office answers, bounces,
// unsubscribe requests), newest first, filtered by classification (`?classification=reply`, kept in the address
// so a filtered inbox can be shared). `?lead=lead_…` opens that lead's conversation (conversation.js).
import { allPages } from './api.js';
import { conversationView } from './conversation.js';
import { h } from './dom.js';
import { inPage } from './long-poll.js';
import { inbox } from './reply-inbox.js';
import { focusTitle } from './shell.js';
import './replies.css';

const PATH = '/admin/replies';

/**
 * @param {HTMLElement} main
 * @param {import('./app.js').PageContext} ctx
 */
export function repliesPage(main, ctx) {
  /** @type {Promise<Map<string, string>> | null} */
  let sequences = null;
  // Sequences are shown by name; the page still works (with ids) when they cannot be read.
  const sequenceNames = () =>
    (sequences ??= allPages((c) => ctx.api.list_email_sequences({ limit: 50, cursor: c ?? undefined }))
      .then((list) => new Map(list.map((s) => [s.id, s.name])))
      .catch(() => new Map()));
  /** @type {Map<string, Promise<any>>} */
  const leads = new Map();
  const leadOf = (/** @type {string} */ id) => {
    if (!leads.has(id))
      leads.set(
        id,
        ctx.api.get_lead({ lead_id: id }).catch(() => null),
      );
    return /** @type {Promise<any>} */ (leads.get(id));
  };

  let view = 0;
  const show = () => {
    const current = ++view;
    const life = new AbortController();
    ctx.signal.addEventListener('abort', () => life.abort(), { once: true });
    stopView();
    stopView = () => life.abort();
    const viewCtx = { ...ctx, alive: () => ctx.alive() && current === view, signal: life.signal };
    const leadId = new URLSearchParams(location.search).get('lead');
    if (leadId)
      conversationView(
        main,
        { ...viewCtx, api: ctx.api.withSignal(life.signal) },
        { leadId, back: back(), sequenceNames },
      );
    else {
      listUrl = `${PATH}${location.search}`;
      inbox(main, viewCtx, { sequenceNames, leadOf, open });
    }
  };
  let stopView = () => {};
  let listUrl = PATH;

  /** @param {string | null} query @param {{ replace?: boolean }} [how] */
  function open(query, how = {}) {
    history[how.replace ? 'replaceState' : 'pushState'](null, '', query ? `${PATH}?${query}` : PATH);
    show();
    if (!how.replace) focusTitle(main);
  }

  function back() {
    // Back to the inbox as it was filtered when the conversation was opened.
    const to = listUrl;
    return h(
      'a',
      {
        class: 'back-link',
        href: to,
        on: { click: inPage(() => open(new URL(to, location.href).search.slice(1) || null)) },
      },
      h('span', { 'aria-hidden': 'true', text: '← ' }),
      'All replies',
    );
  }

  window.addEventListener('popstate', () => location.pathname === PATH && show(), { signal: ctx.signal });
  show();
}
