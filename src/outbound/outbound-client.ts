// The one HTTP client for user-given URLs (knowledge crawling, CSV imports, webhook deliveries).
// Every hop's address is checked at connect time by the guarded connector, redirects are followed
// by hand, and time, size and media-type limits hold while the body streams. Requests go over
// node:http (http-transport.ts says why not undici).
import { createAddressPolicy, type AddressPolicy } from './address-policy.ts';
import { classifyFailure } from './classify-failure.ts';
import { startDeadline, type Deadline } from './deadline.ts';
import { createGuardedConnector, systemResolver, type GuardedConnectorOptions, type Resolver } from './connector.ts';
import { createHttpTransport, type TransportResponse } from './http-transport.ts';
import { checkDeclaredLength, checkMediaType, limitBody } from './limits.ts';
import { OutboundError } from './outbound-error.ts';
import { outboundResponse, type OutboundResponse } from './outbound-response.ts';
import { nextHop, type Hop } from './redirects.ts';
import { checkUrl, redactUrl } from './url-check.ts';

export interface OutboundLimits {
  /** Whole call: connect, redirects, headers and the entire body. */
  timeoutMs: number;
  /** Decoded body bytes. */
  maxBytes: number;
  maxRedirects: number;
}

export interface OutboundClientOptions extends Partial<OutboundLimits> {
  /** Sent as User-Agent on every request, so receivers can identify and contact us. */
  userAgent: string;
  /** The configuration switch: also reach loopback and private networks (local use, tests). */
  allowPrivate?: boolean;
  /** Extra CIDR blocks to allow (an internal host an operator chose). */
  allowedCidrs?: readonly string[];
  /** Replaces the policy built from allowPrivate/allowedCidrs. */
  policy?: AddressPolicy;
  /** Host name resolution; the system resolver by default. */
  resolve?: Resolver;
  connectTimeoutMs?: number;
  /** Longest silence while waiting for headers or between body chunks. */
  idleTimeoutMs?: number;
  tls?: GuardedConnectorOptions['tls'];
}

export interface OutboundRequest extends Partial<OutboundLimits> {
  method?: string;
  headers?: Record<string, string>;
  /** A string or bytes, so a 307/308 redirect can send it again. */
  body?: string | Uint8Array;
  /** Allowed media types of a 2xx response (`text/csv`, `text/*`); any type when absent. */
  accept?: readonly string[];
  signal?: AbortSignal;
}

interface FinishContext extends OutboundLimits {
  accept?: readonly string[];
  deadline: Deadline;
  redirects: string[];
}

export interface OutboundClient {
  fetch(url: string | URL, request?: OutboundRequest): Promise<OutboundResponse>;
  close(): Promise<void>;
}

const defaults = {
  timeoutMs: 30_000,
  maxBytes: 10 * 1024 * 1024,
  maxRedirects: 5,
  connectTimeoutMs: 10_000,
  idleTimeoutMs: 30_000,
};

/** Misconfiguration throws when the client (or the call) is set up, not halfway through a fetch. */
function positive(name: string, value: number, allowZero = false): number {
  if (Number.isInteger(value) && value >= (allowZero ? 0 : 1)) return value;
  throw new Error(
    `outbound client: ${name} must be a ${allowZero ? 'non-negative' : 'positive'} integer, got ${value}`,
  );
}

function limitsOf(base: OutboundLimits, override: Partial<OutboundLimits>): OutboundLimits {
  return {
    timeoutMs: positive('timeoutMs', override.timeoutMs ?? base.timeoutMs),
    maxBytes: positive('maxBytes', override.maxBytes ?? base.maxBytes),
    maxRedirects: positive('maxRedirects', override.maxRedirects ?? base.maxRedirects, true),
  };
}

export function createOutboundClient(options: OutboundClientOptions): OutboundClient {
  if (!options.userAgent?.trim()) throw new Error('outbound client: userAgent is required');
  const limits = limitsOf({ ...defaults }, options);
  const idleTimeoutMs = positive('idleTimeoutMs', options.idleTimeoutMs ?? defaults.idleTimeoutMs);
  const connectTimeoutMs = positive('connectTimeoutMs', options.connectTimeoutMs ?? defaults.connectTimeoutMs);
  const transport = createHttpTransport({
    idleTimeoutMs,
    connect: createGuardedConnector({
      policy:
        options.policy ??
        createAddressPolicy({ allowPrivate: options.allowPrivate, allowedCidrs: options.allowedCidrs }),
      resolve: options.resolve ?? systemResolver,
      connectTimeoutMs,
      tls: options.tls,
    }),
  });

  const timeouts = { connectTimeoutMs };

  /** Checks the final response's headers and wraps its body in the streaming limits. */
  async function finish(response: TransportResponse, hop: Hop, call: FinishContext): Promise<OutboundResponse> {
    const url = redactUrl(hop.url);
    const { body } = response;
    try {
      if (response.status >= 200 && response.status < 300)
        checkMediaType(response.headers.get('content-type'), call.accept, url);
      checkDeclaredLength(response.headers, call.maxBytes, url);
    } catch (error) {
      await body.cancel().catch(() => {});
      throw error;
    }
    const { signal, settle } = call.deadline;
    const mapError = (error: unknown) => classifyFailure(error, { ...timeouts, signal, url });
    const limited = limitBody(body, { maxBytes: call.maxBytes, url, mapError, onSettled: settle });
    return outboundResponse({
      status: response.status,
      url,
      redirects: call.redirects,
      headers: response.headers,
      body: limited,
    });
  }

  async function fetch(input: string | URL, request: OutboundRequest = {}): Promise<OutboundResponse> {
    const call = limitsOf(limits, request);
    const headers = new Headers(request.headers);
    if (request.accept?.length && !headers.has('accept')) headers.set('accept', request.accept.join(', '));
    headers.set('user-agent', options.userAgent);
    let hop: Hop = {
      url: checkUrl(input),
      method: (request.method ?? 'GET').toUpperCase(),
      headers,
      body: request.body,
    };
    const deadline = startDeadline(call.timeoutMs, request.signal, () => redactUrl(hop.url));
    const redirects: string[] = [];
    try {
      for (;;) {
        const response = await transport.send(hop, deadline.signal);
        const next = nextHop(hop, response.status, response.headers.get('location'));
        if (!next) return await finish(response, hop, { ...call, accept: request.accept, deadline, redirects });
        await response.body.cancel().catch(() => {});
        if (redirects.length >= call.maxRedirects) {
          throw new OutboundError('too_many_redirects', `more than ${call.maxRedirects} redirects`, {
            url: redactUrl(next.url),
          });
        }
        redirects.push(redactUrl(hop.url));
        hop = next;
      }
    } catch (error) {
      deadline.settle();
      throw classifyFailure(error, { ...timeouts, signal: deadline.signal, url: redactUrl(hop.url) });
    }
  }

  return { fetch, close: async () => transport.close() };
}
