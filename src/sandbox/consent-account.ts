// The account a person types on a sandbox consent page (Google's, Facebook's). It becomes a connector's
// account and the From of sandbox mail, so it must be an e-mail address by the rules leads follow, not
// merely look like one: `<img/src=x/onerror=alert(9)>@x.io` is refused and the form shown again.
import { normalizeEmail } from '../handlers/leads/lead-email.ts';
import { escapeHtml } from '../http/page.ts';

/** What the account field shows: the value typed (or the login hint), and why it was refused. */
export interface AccountEntry {
  value: string;
  error?: string;
}

export type AccountCheck = { ok: true; email: string } | { ok: false; entry: AccountEntry };

export function checkAccount(raw: string): AccountCheck {
  const result = normalizeEmail(raw);
  if (result.ok) return { ok: true, email: result.email };
  return { ok: false, entry: { value: raw, error: `Enter an email address for the account: ${result.message}.` } };
}

/** The labelled account field, pre-filled, with the error (if any) tied to it for screen readers. */
export function accountField(label: string, entry: AccountEntry): string {
  const error = entry.error
    ? `<p id="account-error" class="form-error" role="alert">${escapeHtml(entry.error)}</p>\n`
    : '';
  const invalid = entry.error ? ' aria-invalid="true" aria-describedby="account-error"' : '';
  return `<p><label for="account">${escapeHtml(label)}</label><br>
<input id="account" name="account_email" type="email" required maxlength="254" value="${escapeHtml(entry.value)}"${invalid}></p>
${error}`;
}
