// The grant behind a bearer token presented to the sandbox's Google APIs, or the 401 Google answers.
// Only a live access token opens them; the grant names the mailbox (workspace and account address).
import { createHash } from 'node:crypto';
import { findSandboxTokenByHash, type SandboxGrantRow } from '../handlers/connectors/sandbox-data.ts';
import type { Deps } from '../deps.ts';
import { googleError } from './gmail-wire.ts';

const hash = (value: string) => createHash('sha256').update(value).digest('hex');

export async function sandboxBearer(
  deps: Deps,
  header: string | undefined,
): Promise<{ grant: SandboxGrantRow; error?: undefined } | { grant?: undefined; error: Response }> {
  const match = /^Bearer (\S+)$/.exec(header ?? '');
  const found = match ? await findSandboxTokenByHash(deps.db.sql, hash(match[1])) : undefined;
  const live =
    found &&
    found.kind === 'access' &&
    !found.revoked_at &&
    (!found.expires_at || found.expires_at.getTime() > deps.clock.now().getTime());
  if (!live) return { error: googleError(401, 'Request had invalid authentication credentials.', 'authError') };
  return { grant: found.grant };
}
