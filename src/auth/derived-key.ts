// Keys derived from a server secret under a label of their own (HKDF-SHA-256), so one stored secret serves
// several MACs that can never be mistaken for one another. Derived once per secret and label, then reused:
// the callers are on the request path.
import { hkdfSync } from 'node:crypto';

const derived = new WeakMap<Uint8Array, Map<string, Buffer>>();

export function derivedKey(secret: Uint8Array, label: string): Buffer {
  let byLabel = derived.get(secret);
  if (!byLabel) derived.set(secret, (byLabel = new Map()));
  let key = byLabel.get(label);
  if (!key) byLabel.set(label, (key = Buffer.from(hkdfSync('sha256', secret, new Uint8Array(0), label, 32))));
  return key;
}
