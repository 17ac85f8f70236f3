// The HTML of a webinar's public pages (registration form, its outcomes, the join link's refusals), through
// the service's page shell: no script, every value escaped, strict CSP added by the response writer; the
// organiser (the workspace) named at the top.
import type { WebinarRow } from './webinars-data.ts';
import { escapeHtml, renderPage } from '../../http/page.ts';
import { findWorkspace } from '../users/workspaces-data.ts';
import type { HandlerContext } from '../context.ts';

/** What every page of a webinar shares: whether Gmail is the sandbox, and the organiser's name. */
export interface WebinarShell {
  sandbox: boolean;
  brand: string | null;
}

function when(w: WebinarRow): string {
  const fmt = new Intl.DateTimeFormat('en-GB', { dateStyle: 'full', timeStyle: 'short', timeZone: w.timezone });
  return `${fmt.format(w.start_at)} (${w.timezone}), ${w.duration_minutes} minutes`;
}

const about = (w: WebinarRow) =>
  `<p class="when">${escapeHtml(when(w))}</p>\n${w.description ? `<p>${escapeHtml(w.description)}</p>` : ''}`;

export function registrationForm(w: WebinarRow, csrf: string, shell: WebinarShell): string {
  const action = `/webinars/${escapeHtml(w.public_id)}/register`;
  const body = `${about(w)}
<form method="post" action="${action}">
<input type="hidden" name="csrf" value="${escapeHtml(csrf)}">
<p><label for="email">Email</label> <input id="email" name="email" type="email" required maxlength="254" autocomplete="email"></p>
<p><label for="first_name">First name</label> <input id="first_name" name="first_name" maxlength="100" autocomplete="given-name"></p>
<p><label for="last_name">Last name</label> <input id="last_name" name="last_name" maxlength="100" autocomplete="family-name"></p>
<p><button type="submit">Register</button></p>
</form>`;
  return renderPage({ title: w.title, body, ...shell });
}

const back = (w: WebinarRow) =>
  `<p><a href="/webinars/${escapeHtml(w.public_id)}/register">Back to the registration form</a></p>`;

/** Pages for each outcome of a registration (or of opening a closed webinar's form). */
export const outcomePages = {
  registered: (w: WebinarRow, email: string, shell: WebinarShell) =>
    renderPage({
      title: "You're registered",
      body: `<p>You are registered for <strong>${escapeHtml(w.title)}</strong>.</p>${about(w)}<p>A confirmation with your personal join link and a calendar invitation is on its way to <strong>${escapeHtml(email)}</strong>.</p>`,
      ...shell,
    }),
  duplicate: (w: WebinarRow, shell: WebinarShell) =>
    renderPage({
      title: 'Already registered',
      body: `<p>This address is already registered for <strong>${escapeHtml(w.title)}</strong>. Look for the confirmation email: it has your join link.</p>`,
      ...shell,
    }),
  full: (w: WebinarRow, shell: WebinarShell) =>
    renderPage({
      title: 'Webinar full',
      body: `<p><strong>${escapeHtml(w.title)}</strong> has no seats left.</p>`,
      ...shell,
    }),
  started: (w: WebinarRow, shell: WebinarShell) =>
    renderPage({
      title: 'Registration closed',
      body: `<p><strong>${escapeHtml(w.title)}</strong> has already started: registration is closed.</p>`,
      ...shell,
    }),
  cancelled: (w: WebinarRow, shell: WebinarShell) =>
    renderPage({
      title: 'Webinar cancelled',
      body: `<p><strong>${escapeHtml(w.title)}</strong> was cancelled.</p>`,
      ...shell,
    }),
  suppressed: (w: WebinarRow, shell: WebinarShell) =>
    renderPage({
      title: 'Cannot register this address',
      body: `<p>This address asked not to receive email from this organiser, so it cannot be registered for <strong>${escapeHtml(w.title)}</strong>. Contact the organiser.</p>`,
      ...shell,
    }),
  invalid: (w: WebinarRow, shell: WebinarShell) =>
    renderPage({ title: 'Check the form', body: `<p>Enter a valid email address.</p>${back(w)}`, ...shell }),
  forbidden: (w: WebinarRow, shell: WebinarShell) =>
    renderPage({
      title: 'Form expired',
      body: `<p>This form could not be checked (it expired, or cookies are blocked). Open the registration page again and resubmit.</p>${back(w)}`,
      ...shell,
    }),
};

export const notFoundPage = (shell: WebinarShell) =>
  renderPage({
    title: 'Not found',
    body: '<p>There is no such webinar, or this link is not valid any more.</p>',
    ...shell,
  });
export const cancelledJoinPage = (w: WebinarRow, shell: WebinarShell) =>
  renderPage({
    title: 'Webinar cancelled',
    body: `<p><strong>${escapeHtml(w.title)}</strong> was cancelled; there is nothing to join.</p>`,
    ...shell,
  });

/** Pages served while Gmail is the sandbox say so. */
export const inSandbox = (ctx: HandlerContext) => ctx.deps.connectors.gmail.mode === 'sandbox';

/** The shell of a webinar's pages; without a webinar (not found), the product's name. */
export async function webinarShell(ctx: HandlerContext, w: WebinarRow | undefined): Promise<WebinarShell> {
  const workspace = w ? await findWorkspace(ctx.deps.db.sql, w.workspace_id) : undefined;
  return { sandbox: inSandbox(ctx), brand: workspace?.name ?? null };
}
