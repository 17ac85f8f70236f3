// A connector as people read it: its status and failure reason in words, and its mode as a badge that
// makes sandbox (no real account, mail kept in the sandbox mailbox) impossible to miss.
import { badge, h } from './dom.js';

/** @type {Record<string, { label: string, tone: 'green' | 'gray' | 'indigo' | 'amber' | 'red' }>} */
const STATUSES = {
  pending_consent: { label: 'Waiting for consent', tone: 'amber' },
  connected: { label: 'Connected', tone: 'green' },
  failed: { label: 'Failed', tone: 'red' },
  expired: { label: 'Expired', tone: 'amber' },
  revoked: { label: 'Revoked', tone: 'gray' },
};

/** The API's failure codes (the OAuth callback's refusals, the provider refusing a refresh). */
const FAILURES = {
  consent_denied: 'Access was not allowed on the consent page.',
  scope_missing: 'Permission to send email was not granted.',
  state_expired: 'The consent link expired before it was used.',
  provider_error: 'The sign-in provider reported an error.',
  code_missing: 'The sign-in response was incomplete.',
  token_exchange_failed: 'The provider did not accept the authorization code.',
  userinfo_failed: 'The provider did not tell us the account address.',
  refresh_token_invalid: 'Access was withdrawn at the provider, or it ran out.',
};

const PROVIDERS = { gmail: 'Gmail' };

/** @param {{ status: string }} c */
export function statusBadge(c) {
  const s = STATUSES[c.status] ?? { label: c.status, tone: 'gray' };
  return badge(s.label, s.tone);
}

/** @param {string | null} reason */
export function failureText(reason) {
  if (!reason) return null;
  return /** @type {Record<string, string>} */ (FAILURES)[reason] ?? `The connection failed (${reason}).`;
}

/** @param {string} provider */
export function providerName(provider) {
  return /** @type {Record<string, string>} */ (PROVIDERS)[provider] ?? provider;
}

/** The mode, with what sandbox means said next to it. @param {{ mode: 'live' | 'sandbox' }} c */
export function modeCell(c) {
  if (c.mode !== 'sandbox') return badge('Live', 'indigo');
  return h(
    'span',
    { class: 'mode-sandbox' },
    badge('Sandbox', 'amber'),
    h('span', { class: 'cell-sub', text: 'No real account; mail stays in the sandbox mailbox.' }),
  );
}

/** Whether a pending connector's consent link can still be used. @param {{ status: string, authorization_url: string | null, authorization_expires_at: string | null }} c */
export function linkUsable(c) {
  if (c.status !== 'pending_consent' || !c.authorization_url) return false;
  return !c.authorization_expires_at || Date.parse(c.authorization_expires_at) > Date.now();
}

/** How a connector is named in labels and messages. @param {{ provider: string, account_email: string | null, id: string }} c */
export function connectorName(c) {
  return c.account_email ?? `${providerName(c.provider)} connector ${c.id.slice(-6)}`;
}
