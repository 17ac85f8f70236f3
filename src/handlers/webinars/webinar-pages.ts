// The HTML of a webinar's public pages (registration form, its outcomes, the join link's refusals), through
// the service's page shell: no script, every value escaped, strict CSP added by the response writer.
import type { WebinarRow } from './webinars-data.ts';
import { escapeHtml, renderPage } from '../../http/page.ts';
import type { HandlerContext } from '../context.ts';

function when(w: WebinarRow): string {
  const fmt = new Intl.DateTimeFormat('en-GB', { dateStyle: 'full', timeStyle: 'short', timeZone: w.timezone });
  return `${fmt.format(w.start_at)} (${w.timezone}), ${w.duration_minutes} minutes`;
}

const about = (w: WebinarRow) =>
  `<p class="when">${escapeHtml(when(w))}</p>\n${w.description ? `<p>${escapeHtml(w.description)}</p>` : ''}`;

export function registrationForm(w: WebinarRow, csrf: string, sandbox: boolean): string {
  const action = `/webinars/${escapeHtml(w.public_id)}/register`;
  const body = `${about(w)}
<form method="post" action="${action}">
<input type="hidden" name="csrf" value="${escapeHtml(csrf)}">
<p><label for="email">Email</label> <input id="email" name="email" type="email" required maxlength="254" autocomplete="email"></p>
<p><label for="first_name">First name</label> <input id="first_name" name="first_name" maxlength="100" autocomplete="given-name"></p>
<p><label for="last_name">Last name</label> <input id="last_name" name="last_name" maxlength="100" autocomplete="family-name"></p>
<p><button type="submit">Register</button></p>
</form>`;
  return renderPage({ title: w.title, body, sandbox });
}

const back = (w: WebinarRow) =>
  `<p><a href="/webinars/${escapeHtml(w.public_id)}/register">Back to the registration form</a></p>`;

/** Pages for each outcome of a registration (or of opening a closed webinar's form). */
export const outcomePages = {
  registered: (w: WebinarRow, email: string, sandbox: boolean) =>
    renderPage({
      title: "You're registered",
      body: `<p>You are registered for <strong>${escapeHtml(w.title)}</strong>.</p>${about(w)}<p>A confirmation with your personal join link and a calendar invitation is on its way to <strong>${escapeHtml(email)}</strong>.</p>`,
      sandbox,
    }),
  duplicate: (w: WebinarRow, sandbox: boolean) =>
    renderPage({
      title: 'Already registered',
      body: `<p>This address is already registered for <strong>${escapeHtml(w.title)}</strong>. Look for the confirmation email: it has your join link.</p>`,
      sandbox,
    }),
  full: (w: WebinarRow, sandbox: boolean) =>
    renderPage({
      title: 'Webinar full',
      body: `<p><strong>${escapeHtml(w.title)}</strong> has no seats left.</p>`,
      sandbox,
    }),
  started: (w: WebinarRow, sandbox: boolean) =>
    renderPage({
      title: 'Registration closed',
      body: `<p><strong>${escapeHtml(w.title)}</strong> has already started: registration is closed.</p>`,
      sandbox,
    }),
  cancelled: (w: WebinarRow, sandbox: boolean) =>
    renderPage({
      title: 'Webinar cancelled',
      body: `<p><strong>${escapeHtml(w.title)}</strong> was cancelled.</p>`,
      sandbox,
    }),
  suppressed: (w: WebinarRow, sandbox: boolean) =>
    renderPage({
      title: 'Cannot register this address',
      body: `<p>This address asked not to receive email from this organiser, so it cannot be registered for <strong>${escapeHtml(w.title)}</strong>. Contact the organiser.</p>`,
      sandbox,
    }),
  invalid: (w: WebinarRow, sandbox: boolean) =>
    renderPage({ title: 'Check the form', body: `<p>Enter a valid email address.</p>${back(w)}`, sandbox }),
  forbidden: (w: WebinarRow, sandbox: boolean) =>
    renderPage({
      title: 'Form expired',
      body: `<p>This form could not be checked (it expired, or cookies are blocked). Open the registration page again and resubmit.</p>${back(w)}`,
      sandbox,
    }),
};

export const notFoundPage = (sandbox: boolean) =>
  renderPage({
    title: 'Not found',
    body: '<p>There is no such webinar, or this link is not valid any more.</p>',
    sandbox,
  });
export const cancelledJoinPage = (w: WebinarRow, sandbox: boolean) =>
  renderPage({
    title: 'Webinar cancelled',
    body: `<p><strong>${escapeHtml(w.title)}</strong> was cancelled; there is nothing to join.</p>`,
    sandbox,
  });

/** Pages served while Gmail is the sandbox say so. */
export const inSandbox = (ctx: HandlerContext) => ctx.deps.connectors.gmail.mode === 'sandbox';
