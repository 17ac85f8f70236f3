// The registration form a person opens. The GET sets the CSRF cookie the form's POST (webinar_register)
// must send back, with the form's token bound to it.
import type { WebinarRegistrationPageInput, WebinarRegistrationPageOutput } from '../../generated/handlers.ts';
import type { HandlerContext } from '../context.ts';
import { closedBecause } from './registration.ts';
import { CSRF_COOKIE, cookieValue, issueCsrf } from './tokens.ts';
import { notFoundPage, outcomePages, registrationForm, webinarShell } from './webinar-pages.ts';
import { findWebinarByPublicId } from './webinars-data.ts';

function csrfCookie(ctx: HandlerContext, publicId: string, nonce: string): string {
  const secure = ctx.deps.config.publicBaseUrl.startsWith('https:') ? '; Secure' : '';
  return `${CSRF_COOKIE}=${nonce}; Path=/webinars/${publicId}/register; HttpOnly; SameSite=Strict; Max-Age=7200${secure}`;
}

export async function handle(
  input: WebinarRegistrationPageInput,
  ctx: HandlerContext,
): Promise<WebinarRegistrationPageOutput> {
  const w = await findWebinarByPublicId(ctx.deps.db.sql, input.path.public_id);
  const shell = await webinarShell(ctx, w);
  if (!w) return { status: 404, body: notFoundPage(shell) };
  const closed = closedBecause(w, ctx.deps.clock.now());
  if (closed) return { status: 200, body: outcomePages[closed](w, shell) };
  // The cookie is sent again with the same nonce: that keeps every open tab's form valid and renews its age.
  const { nonce, token } = issueCsrf(
    ctx.deps.auth.apiKeyPepper,
    w.public_id,
    cookieValue(input.headers.cookie, CSRF_COOKIE),
  );
  return {
    status: 200,
    body: registrationForm(w, token, shell),
    headers: { 'Set-Cookie': csrfCookie(ctx, w.public_id, nonce) },
  };
}
