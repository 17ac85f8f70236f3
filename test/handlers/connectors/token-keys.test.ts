// The keys that seal connector tokens: generated once into DATA_DIR (owner-only) when not configured,
// never in the database; a configured list rotates (the first seals, all open); a sealed value opens
// only for the record it was sealed for.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createTokenKeyring, loadTokenKeys, parseTokenKeys } from '../../../src/handlers/connectors/token-keys.ts';

const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));
const key = () => randomBytes(32).toString('base64');

describe('token encryption keys', () => {
  it('generates one key into DATA_DIR, readable by the owner only, and reuses it', () => {
    const dir = mkdtempSync(join(tmpdir(), 'token-keys-'));
    dirs.push(dir);
    const first = loadTokenKeys({ dataDir: dir });
    const file = join(dir, 'token-encryption.key');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readFileSync(file, 'utf8')).toMatch(/^k1:[A-Za-z0-9+/]{43}=\n$/);
    const again = loadTokenKeys({ dataDir: dir });
    expect(again.get('k1')?.equals(first.get('k1') as Buffer)).toBe(true);
  });

  it('rotates: values sealed with an older key still open, new ones use the first key', () => {
    const [k1, k2] = [key(), key()];
    const old = createTokenKeyring(parseTokenKeys(`k1:${k1}`));
    const sealed = old.seal('connector:ws_1:conn_1', 'secret');
    const rotated = createTokenKeyring(parseTokenKeys(`k2:${k2},k1:${k1}`));
    expect(rotated.open('connector:ws_1:conn_1', sealed.sealed, sealed.keyId)).toBe('secret');
    expect(rotated.seal('x', 'y').keyId).toBe('k2');
  });

  it('opens a value only for the record it was sealed for, and never with a missing key', () => {
    const ring = createTokenKeyring(parseTokenKeys(`k1:${key()}`));
    const sealed = ring.seal('connector:ws_1:conn_1', 'secret');
    expect(() => ring.open('connector:ws_2:conn_1', sealed.sealed, sealed.keyId)).toThrow();
    expect(() => ring.open('connector:ws_1:conn_1', sealed.sealed, 'k9')).toThrow(/no token encryption key "k9"/);
  });

  it('refuses a malformed TOKEN_ENCRYPTION_KEY with the reason', () => {
    expect(() => parseTokenKeys('k1:short')).toThrow(/32 bytes/);
    expect(() => parseTokenKeys(`bad id!:${key()}`)).toThrow(/key id/);
    const same = key();
    expect(() => parseTokenKeys(`a:${same},a:${same}`)).toThrow(/twice/);
  });
});
