// The check a user-given URL passes when it is accepted (a webhook endpoint, a knowledge source), before
// anything is fetched: it parses, is http(s) without credentials, is at most 2 KB, and an IP literal in
// it is public unicast (unless OUTBOUND_ALLOW_PRIVATE). A host name is judged later, at every fetch, on
// the address actually connected to (connector.ts), so `localhost` passes here and fails there.
import ipaddr from 'ipaddr.js';
import { ApiError } from '../errors.ts';
import { createAddressPolicy } from './address-policy.ts';
import { OutboundError, outboundApiError } from './outbound-error.ts';
import { checkUrl, redactUrl } from './url-check.ts';

export const MAX_URL_LENGTH = 2048;

// Made once, not per accepted URL: a policy depends only on allowPrivate here.
const policies = {
  private: createAddressPolicy({ allowPrivate: true }),
  public: createAddressPolicy({ allowPrivate: false }),
};

/** The URL as it will be fetched; a 422 problem naming the reason and `field` otherwise. */
export function checkUserUrl(raw: string, options: { allowPrivate: boolean; field: string }): URL {
  if (raw.length > MAX_URL_LENGTH) {
    throw new ApiError('validation_failed', `The URL is longer than ${MAX_URL_LENGTH} characters.`, {
      errors: [{ field: options.field, code: 'url_too_long', message: `at most ${MAX_URL_LENGTH} characters` }],
    });
  }
  try {
    const url = checkUrl(raw);
    // The URL parser already turned every IPv4 spelling (2130706433, 0x7f.1, 0177.0.0.1) into dotted form.
    const host = url.hostname.replace(/^\[|\]$/g, '');
    if (ipaddr.isValid(host)) {
      const verdict = (options.allowPrivate ? policies.private : policies.public)(host);
      if (!verdict.allowed) {
        throw new OutboundError('address_not_allowed', `the address ${host} (${verdict.addressClass}) is not allowed`, {
          url: redactUrl(url),
          address: host,
          addressClass: verdict.addressClass,
        });
      }
    }
    return url;
  } catch (error) {
    if (error instanceof OutboundError) throw outboundApiError(error, options.field);
    throw error;
  }
}
