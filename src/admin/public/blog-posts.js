// Content → Blog posts: the workspace's posts, newest first, and one post's preview as a person reviews it
// before it is published: its search and Open Graph card (title, description, address), its outline with
// the knowledge pages each section cites, and the page itself exactly as the blog will show it. The page
// is the service's own sanitized rendering, shown in a sandboxed iframe from its signed preview link: the
// post's markup never reaches this document (Trusted Types forbid it), and the frame may run nothing.
import { ApiProblem } from './api.js';
import { badge, h, mount } from './dom.js';
import { timeElement } from './format.js';
import { emptyState, errorState, loadingState, pageHeader } from './shell.js';

const PATH = '/admin/blog-posts';
const STATUS = /** @type {Record<string, { label: string, tone: 'gray' | 'amber' | 'green' }>} */ ({
  draft: { label: 'Draft', tone: 'gray' },
  scheduled: { label: 'Scheduled', tone: 'amber' },
  published: { label: 'Published', tone: 'green' },
});

/** @param {string} status */
const statusBadge = (status) => badge(STATUS[status]?.label ?? status, STATUS[status]?.tone ?? 'gray');

/**
 * @param {HTMLElement} main
 * @param {import('./app.js').PageContext} ctx
 */
export function blogPostsPage(main, ctx) {
  const selected = new URLSearchParams(location.search).get('post');
  document.title = 'Blog posts · Content · Agent Platform';
  const card = h('section', { class: 'card', 'aria-label': selected ? 'Post preview' : 'Blog posts' });
  const description = selected
    ? 'The post as readers and search engines will see it. Publish it with publish_blog_post (or ask your agent to).'
    : 'Posts written from the workspace knowledge, newest first. Open one to review it before it is published.';
  mount(
    main,
    pageHeader({
      title: selected ? 'Post preview' : 'Blog posts',
      description,
      action: selected ? h('a', { class: 'btn btn-secondary', href: PATH, text: 'All posts' }) : null,
    }),
    card,
  );
  void (selected ? showPost(selected) : showList());

  async function showList() {
    mount(card, loadingState('Loading posts…'));
    try {
      const page = await ctx.api.list_blog_posts({ limit: 100 });
      if (!ctx.alive()) return;
      if (!page.data.length)
        return mount(
          card,
          emptyState({
            icon: 'mail',
            title: 'No posts yet',
            message: 'Ask your agent to write one with generate_blog_post.',
          }),
        );
      const rows = page.data.map((/** @type {any} */ p) =>
        h(
          'tr',
          null,
          h(
            'th',
            { scope: 'row' },
            h('a', { class: 'link', href: `${PATH}?post=${encodeURIComponent(p.id)}`, text: p.title }),
            h('span', { class: 'cell-sub', text: p.slug }),
          ),
          h('td', null, statusBadge(p.status)),
        ),
      );
      const table = h(
        'table',
        { class: 'table' },
        h(
          'thead',
          null,
          h('tr', null, h('th', { scope: 'col', text: 'Title' }), h('th', { scope: 'col', text: 'Status' })),
        ),
        h('tbody', null, rows),
      );
      mount(card, h('div', { class: 'table-wrap' }, table));
    } catch (error) {
      failed(error, showList);
    }
  }

  /** @param {string} id */
  async function showPost(id) {
    mount(card, loadingState('Loading the post…'));
    try {
      const post = await ctx.api.get_blog_post({ post_id: id });
      if (!ctx.alive()) return;
      mount(card, postDetails(post));
    } catch (error) {
      failed(error, () => void showPost(id));
    }
  }

  /** @param {unknown} error @param {() => void} retry */
  function failed(error, retry) {
    if (!ctx.alive() || (error instanceof ApiProblem && error.status === 401)) return;
    mount(card, errorState(error instanceof Error ? error.message : String(error), retry));
  }
}

/** @param {any} post */
function postDetails(post) {
  const address =
    post.status === 'published'
      ? h('a', { class: 'link', href: post.url, target: '_blank', rel: 'noopener noreferrer', text: post.url })
      : h('span', { text: post.url });
  const when =
    post.status === 'scheduled'
      ? ['Publishes ', timeElement(post.publish_at)]
      : post.status === 'published'
        ? ['Published ', timeElement(post.published_at)]
        : ['Not published'];
  const social = h(
    'div',
    { class: 'blog-card', 'aria-label': 'Search and social preview', role: 'group' },
    h('span', { class: 'blog-card-url', text: post.url }),
    h('strong', { class: 'blog-card-title', text: post.title }),
    h('span', { class: 'blog-card-description', text: post.meta_description }),
  );
  const urls = new Map(post.sources.map((/** @type {any} */ s) => [s.chunk_id, s.url]));
  const outline = h(
    'ol',
    { class: 'blog-outline', 'aria-label': 'Outline' },
    post.outline.map((/** @type {any} */ s) =>
      h(
        'li',
        null,
        h('span', { text: s.heading }),
        s.chunk_ids.map((/** @type {string} */ id) =>
          h('span', { class: 'cell-sub', text: `Source: ${urls.get(id) ?? id}` }),
        ),
      ),
    ),
  );
  const frame = h('iframe', {
    class: 'blog-preview-frame',
    src: post.preview_url,
    sandbox: '',
    referrerpolicy: 'no-referrer',
    title: `Preview of ${post.title}`,
  });
  return h(
    'div',
    { class: 'blog-preview' },
    h(
      'div',
      { class: 'card-header' },
      h(
        'div',
        null,
        h('h2', { class: 'card-title', text: post.title }),
        h('p', { class: 'card-description' }, statusBadge(post.status), ' ', ...when, ' · ', address),
      ),
    ),
    social,
    h('h3', { class: 'blog-subtitle', text: 'Outline' }),
    outline,
    h('h3', { class: 'blog-subtitle', text: 'Page' }),
    frame,
  );
}
