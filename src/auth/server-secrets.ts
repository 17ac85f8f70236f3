// Secrets the service needs (JWT signing key, API-key pepper): taken from configuration when given,
// otherwise generated once and kept in `server_secrets` so restarts and sibling instances agree.
import { randomBytes } from 'node:crypto';
import type { Sql } from 'postgres';

export const minSecretBytes = 32;

const base64url = /^[A-Za-z0-9_-]+$/;

/** Decodes a configured base64url secret; throws at startup when it is malformed or too short. */
export function decodeConfiguredSecret(name: string, configured: string): Uint8Array {
  const text = configured.trim().replace(/=+$/, '');
  if (!base64url.test(text)) throw new Error(`${name}: the configured secret is not base64url`);
  const bytes = new Uint8Array(Buffer.from(text, 'base64url'));
  if (bytes.length < minSecretBytes) {
    throw new Error(
      `${name}: the configured secret has ${bytes.length} bytes, at least ${minSecretBytes} are required`,
    );
  }
  return bytes;
}

/**
 * Returns the configured secret, or the one stored under `name`, creating it on first use.
 * `ON CONFLICT DO NOTHING` followed by a read makes two instances starting together agree on
 * whichever value was inserted first.
 */
export async function loadOrCreateSecret(sql: Sql, name: string, configured?: string): Promise<Uint8Array> {
  if (configured !== undefined && configured !== '') return decodeConfiguredSecret(name, configured);
  const candidate = randomBytes(minSecretBytes).toString('base64url');
  await sql`
    insert into server_secrets (name, value) values (${name}, ${candidate})
    on conflict (name) do nothing`;
  const rows = await sql<{ value: string }[]>`select value from server_secrets where name = ${name}`;
  if (rows.length === 0) throw new Error(`server secret ${name} could not be stored`);
  return decodeConfiguredSecret(name, rows[0].value);
}
