// Plays the human in a browser, over plain HTTP: opens the consent link, fills the sandbox consent form
// (the account, the permissions left ticked, Allow or Deny), follows the provider's redirect to the
// service's callback and returns the page it shows.
export interface Connector {
  id: string;
  status: string;
  mode: string;
  account_email: string | null;
  authorization_url: string | null;
  authorization_expires_at: string | null;
  scopes_requested: string[];
  scopes_granted: string[];
  failure_reason: string | null;
  next_action: string | null;
}

export interface Choice {
  email: string;
  deny?: boolean;
  /** Scopes left ticked; default all. */
  grant?: string[];
}

const decode = (s: string) =>
  s
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');

/** The consent form's fields, as a browser would submit them. */
export function consentForm(html: string, choice: Choice): URLSearchParams {
  const form = new URLSearchParams();
  for (const m of html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g))
    form.append(m[1], decode(m[2]));
  form.set('account_email', choice.email);
  const scopes = [...html.matchAll(/name="granted_scope" value="([^"]+)"/g)].map((m) => decode(m[1]));
  for (const s of scopes) if (!choice.grant || choice.grant.includes(s)) form.append('granted_scope', s);
  form.set('decision', choice.deny ? 'deny' : 'allow');
  return form;
}

export async function playHuman(
  authorizationUrl: string,
  choice: Choice,
): Promise<{ status: number; html: string; callbackUrl: string }> {
  const consent = await fetch(authorizationUrl);
  if (consent.status !== 200) throw new Error(`consent page answered ${consent.status}: ${await consent.text()}`);
  const html = await consent.text();
  const action = /<form method="post" action="([^"]+)"/.exec(html)?.[1];
  if (!action) throw new Error('no consent form on the page');
  const decided = await fetch(new URL(decode(action), authorizationUrl), {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: consentForm(html, choice).toString(),
    redirect: 'manual',
  });
  if (decided.status !== 302) throw new Error(`consent decision answered ${decided.status}: ${await decided.text()}`);
  const callbackUrl = decided.headers.get('location') as string;
  const page = await fetch(callbackUrl);
  return { status: page.status, html: await page.text(), callbackUrl };
}
