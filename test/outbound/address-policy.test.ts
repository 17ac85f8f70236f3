import { describe, expect, it } from 'vitest';
import { createAddressPolicy } from '../../src/outbound/address-policy.ts';

const strict = createAddressPolicy();
const local = createAddressPolicy({ allowPrivate: true });

// [address, addressClass, allowed by default, allowed with allowPrivate]
const table: [string, string, boolean, boolean][] = [
  ['93.184.215.14', 'unicast', true, true],
  ['2606:4700::6810:84e5', 'unicast', true, true],
  ['127.0.0.1', 'loopback', false, true],
  ['127.8.9.10', 'loopback', false, true],
  ['::1', 'loopback', false, true],
  ['0.0.0.0', 'unspecified', false, false],
  ['::', 'unspecified', false, false],
  ['10.0.0.1', 'private', false, true],
  ['172.16.5.4', 'private', false, true],
  ['192.168.1.1', 'private', false, true],
  ['100.64.0.1', 'carrierGradeNat', false, true],
  ['fd00::1', 'uniqueLocal', false, true],
  ['169.254.169.254', 'linkLocal', false, false],
  ['fe80::1', 'linkLocal', false, false],
  ['224.0.0.1', 'multicast', false, false],
  ['ff02::1', 'multicast', false, false],
  ['255.255.255.255', 'broadcast', false, false],
  ['192.0.2.1', 'reserved', false, false],
  ['240.0.0.1', 'reserved', false, false],
  // IPv4 inside IPv6: judged by the IPv4 address it carries.
  ['::ffff:127.0.0.1', 'loopback', false, true],
  ['::ffff:7f00:1', 'loopback', false, true],
  ['::ffff:169.254.169.254', 'linkLocal', false, false],
  ['::ffff:8.8.8.8', 'unicast', true, true],
  ['64:ff9b::7f00:1', 'loopback', false, true],
  ['64:ff9b::a00:1', 'private', false, true],
  ['64:ff9b::808:808', 'unicast', true, true],
  ['2002:7f00:1::1', 'loopback', false, true],
  ['2002:a9fe:a9fe::', 'linkLocal', false, false],
  ['2002:808:808::1', 'unicast', true, true],
  ['2002:a00:1::1', 'private', false, true],
  // ISATAP interface ids (0:5efe or 200:5efe, then the IPv4 address) under any prefix.
  ['2600::5efe:7f00:1', 'loopback', false, true],
  ['2600::200:5efe:a00:1', 'private', false, true],
  ['2600::5efe:a9fe:a9fe', 'linkLocal', false, false],
  ['2002:808:808::5efe:7f00:1', 'loopback', false, true],
  ['2600::5efe:808:808', 'unicast', true, true],
  // The deprecated IPv4-compatible range ::/96 is refused whatever it carries.
  ['::127.0.0.1', 'ipv4Compatible', false, false],
  ['::7f00:1', 'ipv4Compatible', false, false],
  ['::10.0.0.1', 'ipv4Compatible', false, false],
  ['::169.254.169.254', 'ipv4Compatible', false, false],
  ['::8.8.8.8', 'ipv4Compatible', false, false],
  ['::0.0.0.2', 'ipv4Compatible', false, false],
  // Embeddings that cannot be decoded reliably stay refused.
  ['::ffff:0:127.0.0.1', 'rfc6145', false, false],
  ['64:ff9b:1::7f00:1', 'rfc6052', false, false],
  ['64:ff9b:1:7f00:0:100::', 'rfc6052', false, false],
  ['2001:0:4136:e378:8000:63bf:3fff:fdd2', 'teredo', false, false],
  // Teredo server 10.0.0.1, client 127.0.0.1 (stored XOR'd as 80ff:fffe).
  ['2001:0:a00:1::80ff:fffe', 'teredo', false, false],
  ['not-an-address', 'invalid', false, false],
  ['::300.0.0.1', 'invalid', false, false],
];

describe('createAddressPolicy', () => {
  it.each(table)(
    'classifies %s as %s (default allowed: %s, allowPrivate: %s)',
    (address, addressClass, byDefault, withPrivate) => {
      expect(strict(address)).toEqual({ allowed: byDefault, addressClass });
      expect(local(address)).toEqual({ allowed: withPrivate, addressClass });
    },
  );

  it('allows an address inside an allowed CIDR block and nothing else of its class', () => {
    const policy = createAddressPolicy({ allowedCidrs: ['127.0.0.2/32', 'fd12::/16'] });
    expect(policy('127.0.0.2').allowed).toBe(true);
    expect(policy('::ffff:127.0.0.2').allowed).toBe(true);
    expect(policy('fd12::5').allowed).toBe(true);
    expect(policy('127.0.0.1')).toEqual({ allowed: false, addressClass: 'loopback' });
    expect(policy('fd13::5').allowed).toBe(false);
  });

  it('throws at construction when a CIDR block is malformed', () => {
    expect(() => createAddressPolicy({ allowedCidrs: ['10.0.0.0/33'] })).toThrow(/not a CIDR block/);
    expect(() => createAddressPolicy({ allowedCidrs: ['localhost'] })).toThrow(/not a CIDR block/);
  });
});
