// The connector that enforces the address policy at connect time: an IP literal is checked before
// any socket opens (Node never looks literals up), a hostname's DNS answers are checked in the
// lookup the socket itself uses (so there is no gap for DNS rebinding between check and connect),
// and the socket's remote address is checked again once connected (and, for https, after the
// handshake), before any byte of the HTTP request is written: a second line of defence should a
// future Node path open a socket without our lookup. It hands over a ready socket, plain or TLS,
// so the HTTP client above it never connects on its own.
import dns from 'node:dns';
import net from 'node:net';
import tls from 'node:tls';
import type { LookupAddress } from 'node:dns';
import type { ConnectionOptions } from 'node:tls';
import type { AddressPolicy } from './address-policy.ts';
import { OutboundError } from './outbound-error.ts';

/** Resolves a hostname to every address it has; injectable so tests can point names anywhere. */
export type Resolver = (hostname: string) => Promise<LookupAddress[]>;

export const systemResolver: Resolver = (hostname) => dns.promises.lookup(hostname, { all: true, verbatim: true });

export interface GuardedConnectorOptions {
  policy: AddressPolicy;
  resolve: Resolver;
  connectTimeoutMs: number;
  /** TLS settings for every connection (a private CA for tests or an internal PKI). */
  tls?: Pick<ConnectionOptions, 'ca'>;
}

export interface ConnectTarget {
  protocol: 'http:' | 'https:';
  /** A name or a bare IP literal (no brackets). */
  hostname: string;
  port: number;
}

export type Connector = (target: ConnectTarget, callback: (error: Error | null, socket?: net.Socket) => void) => void;

function refusal(policy: AddressPolicy, address: string): OutboundError | undefined {
  const verdict = policy(address);
  if (verdict.allowed) return undefined;
  return new OutboundError(
    'address_not_allowed',
    `connecting to ${address} is not allowed (${verdict.addressClass} address)`,
    { address, addressClass: verdict.addressClass },
  );
}

type LookupCallback = (error: Error | null, address: string | LookupAddress[], family?: number) => void;

/** A `lookup` for net/tls.connect that refuses the whole name when any answer is not allowed. */
function guardedLookup(policy: AddressPolicy, resolve: Resolver) {
  return (hostname: string, options: dns.LookupOptions | number, callback: LookupCallback): void => {
    const all = typeof options === 'object' && options.all === true;
    resolve(hostname).then(
      (answers) => {
        if (answers.length === 0) {
          callback(Object.assign(new Error(`no address for ${hostname}`), { code: 'ENOTFOUND' }), []);
          return;
        }
        for (const answer of answers) {
          const refused = refusal(policy, answer.address);
          if (refused) return callback(refused, []);
        }
        if (all) callback(null, answers);
        else callback(null, answers[0].address, answers[0].family);
      },
      (error: Error) => callback(error, []),
    );
  };
}

export function createGuardedConnector(options: GuardedConnectorOptions): Connector {
  const { policy, connectTimeoutMs } = options;
  const lookup = guardedLookup(policy, options.resolve);
  return (target, callback) => {
    const literal = net.isIP(target.hostname) !== 0;
    if (literal) {
      const refused = refusal(policy, target.hostname);
      if (refused) return callback(refused);
    }
    const secure = target.protocol === 'https:';
    const where = { host: target.hostname, port: target.port, lookup };
    const socket = secure
      ? tls.connect({
          ...where,
          ...options.tls,
          servername: literal ? undefined : target.hostname,
          ALPNProtocols: ['http/1.1'],
        })
      : net.connect(where);
    let done = false;
    const settle = (error: Error | null) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      socket.off('error', settle);
      if (error) {
        socket.destroy();
        return callback(error);
      }
      callback(null, socket);
    };
    const timer = setTimeout(
      () =>
        settle(
          new OutboundError('timeout', `no connection within ${connectTimeoutMs} ms`, { limitMs: connectTimeoutMs }),
        ),
      connectTimeoutMs,
    );
    socket.once('error', settle);
    socket.once(secure ? 'secureConnect' : 'connect', () =>
      settle(refusal(policy, socket.remoteAddress ?? '') ?? null),
    );
  };
}
