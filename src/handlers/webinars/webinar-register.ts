// A person's own registration, posted from the public form with the CSRF token webinar_registration_page
// bound to its cookie.
import type { WebinarRegisterInput, WebinarRegisterOutput } from '../../generated/handlers.ts';
import type { Deps } from '../../deps.ts';
import type { HandlerContext } from '../context.ts';
import { planRegistrantMail } from './mail-plan.ts';
import { closedBecause, PUBLIC, registerOne, type SkipReason } from './registration.ts';
import { checkCsrf, cookieValue, CSRF_COOKIE } from './tokens.ts';
import { notFoundPage, outcomePages, webinarShell } from './webinar-pages.ts';
import { findWebinarByPublicId, type WebinarRow } from './webinars-data.ts';

export type RegisterOutcome =
  | { kind: 'not_found' }
  | { kind: 'registered' | 'cancelled' | 'started' | SkipReason; webinar: WebinarRow };

const trimmed = (v: string | undefined) => (v?.trim() ? v.trim() : null);

export async function webinarRegister(
  deps: Deps,
  publicId: string,
  form: { email: string; first_name: string | null; last_name: string | null },
): Promise<RegisterOutcome> {
  return deps.db.sql.begin(async (tx): Promise<RegisterOutcome> => {
    const w = await findWebinarByPublicId(tx, publicId, { forUpdate: true });
    if (!w) return { kind: 'not_found' };
    const closed = closedBecause(w, deps.clock.now());
    if (closed) return { kind: closed, webinar: w };
    const outcome = await registerOne(deps, tx, w, { ...form, lead_id: null, source: 'page' }, PUBLIC);
    if (typeof outcome === 'string') return { kind: outcome, webinar: w };
    await planRegistrantMail(deps, tx, w, [outcome]);
    return { kind: 'registered', webinar: w };
  });
}

export async function handle(input: WebinarRegisterInput, ctx: HandlerContext): Promise<WebinarRegisterOutput> {
  const publicId = input.path.public_id;
  const w = await findWebinarByPublicId(ctx.deps.db.sql, publicId);
  const shell = await webinarShell(ctx, w);
  if (!w) return { status: 404, body: notFoundPage(shell) };
  if (
    !checkCsrf(ctx.deps.auth.apiKeyPepper, publicId, cookieValue(input.headers.cookie, CSRF_COOKIE), input.body?.csrf)
  ) {
    return { status: 403, body: outcomePages.forbidden(w, shell) };
  }
  const email = trimmed(input.body?.email);
  if (!email) return { status: 400, body: outcomePages.invalid(w, shell) };
  const outcome = await webinarRegister(ctx.deps, publicId, {
    email,
    first_name: trimmed(input.body?.first_name),
    last_name: trimmed(input.body?.last_name),
  });
  switch (outcome.kind) {
    case 'not_found':
      return { status: 404, body: notFoundPage(shell) };
    case 'registered':
      return { status: 201, body: outcomePages.registered(outcome.webinar, email, shell) };
    case 'invalid':
      return { status: 400, body: outcomePages.invalid(outcome.webinar, shell) };
    default:
      return { status: 409, body: outcomePages[outcome.kind](outcome.webinar, shell) };
  }
}
