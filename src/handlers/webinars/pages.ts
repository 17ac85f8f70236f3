// The pages a person sees: the registration form (GET sets the CSRF cookie the POST must send back, with
// the form's token bound to it), the registration itself, and the join link.
import type { WebinarJoinInput, WebinarJoinOutput, WebinarRegisterInput, WebinarRegisterOutput, WebinarRegistrationPageInput, WebinarRegistrationPageOutput } from '../../generated/handlers.ts';
import { findWebinarByPublicId } from './webinars-data.ts';
import { closedBecause, joinByToken, registerFromPage } from './registrants-logic.ts';
import { cancelledJoinPage, notFoundPage, outcomePages, registrationForm } from './pages-logic.ts';
import { checkCsrf, cookieValue, CSRF_COOKIE, issueCsrf } from './tokens.ts';
import type { HandlerContext } from '../context.ts';

const sandbox = (ctx: HandlerContext) => ctx.deps.connectors.gmail.mode === 'sandbox';
const trimmed = (v: string | undefined) => (v?.trim() ? v.trim() : null);

function csrfCookie(ctx: HandlerContext, publicId: string, nonce: string): string {
  const secure = ctx.deps.config.publicBaseUrl.startsWith('https:') ? '; Secure' : '';
  return `${CSRF_COOKIE}=${nonce}; Path=/webinars/${publicId}/register; HttpOnly; SameSite=Strict; Max-Age=7200${secure}`;
}

export async function webinarRegistrationPage(input: WebinarRegistrationPageInput, ctx: HandlerContext): Promise<WebinarRegistrationPageOutput> {
  const w = await findWebinarByPublicId(ctx.deps.db.sql, input.path.public_id);
  if (!w) return { status: 404, body: notFoundPage(sandbox(ctx)) };
  const closed = closedBecause(w, ctx.deps.clock.now());
  if (closed) return { status: 200, body: outcomePages[closed](w, sandbox(ctx)) };
  // The cookie is sent again with the same nonce: that keeps every open tab's form valid and renews its age.
  const { nonce, token } = issueCsrf(ctx.deps.auth.apiKeyPepper, w.public_id, cookieValue(input.headers.cookie, CSRF_COOKIE));
  return { status: 200, body: registrationForm(w, token, sandbox(ctx)), headers: { 'Set-Cookie': csrfCookie(ctx, w.public_id, nonce) } };
}

export async function webinarRegister(input: WebinarRegisterInput, ctx: HandlerContext): Promise<WebinarRegisterOutput> {
  const publicId = input.path.public_id;
  const w = await findWebinarByPublicId(ctx.deps.db.sql, publicId);
  if (!w) return { status: 404, body: notFoundPage(sandbox(ctx)) };
  if (!checkCsrf(ctx.deps.auth.apiKeyPepper, publicId, cookieValue(input.headers.cookie, CSRF_COOKIE), input.body?.csrf)) {
    return { status: 403, body: outcomePages.forbidden(w, sandbox(ctx)) };
  }
  const email = trimmed(input.body?.email);
  if (!email) return { status: 400, body: outcomePages.invalid(w, sandbox(ctx)) };
  const outcome = await registerFromPage(ctx.deps, publicId, { email, first_name: trimmed(input.body?.first_name), last_name: trimmed(input.body?.last_name) });
  switch (outcome.kind) {
    case 'not_found':
      return { status: 404, body: notFoundPage(sandbox(ctx)) };
    case 'registered':
      return { status: 201, body: outcomePages.registered(outcome.webinar, email, sandbox(ctx)) };
    case 'invalid':
      return { status: 400, body: outcomePages.invalid(outcome.webinar, sandbox(ctx)) };
    default:
      return { status: 409, body: outcomePages[outcome.kind](outcome.webinar, sandbox(ctx)) };
  }
}

export async function webinarJoin(input: WebinarJoinInput, ctx: HandlerContext): Promise<WebinarJoinOutput> {
  const outcome = await joinByToken(ctx.deps, input.path.token);
  if (outcome.kind === 'not_found') return { status: 404, body: notFoundPage(sandbox(ctx)) };
  if (outcome.kind === 'cancelled') return { status: 410, body: cancelledJoinPage(outcome.webinar, sandbox(ctx)) };
  return { status: 302, headers: { Location: outcome.meetingUrl, 'Cache-Control': 'no-store', 'Referrer-Policy': 'no-referrer' } };
}
