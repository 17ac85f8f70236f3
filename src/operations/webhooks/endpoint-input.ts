// Checks shared by create and update: the URL (user input we will POST to) and the event types.
import ipaddr from 'ipaddr.js';
import { createAddressPolicy } from '../../outbound/address-policy.ts';
import { OutboundError, outboundApiError } from '../../outbound/outbound-error.ts';
import { checkUrl, redactUrl } from '../../outbound/url-check.ts';
import type { Deps } from '../../deps.ts';
import { ApiError } from '../../errors.ts';

const EVENT_TYPE = /^([a-z_]+\.([a-z_]+|\*)|\*)$/;

/**
 * The URL as it will be called. An IP literal outside public unicast is refused now (unless the
 * OUTBOUND_ALLOW_PRIVATE switch is on); a host name is judged at every delivery, on the address
 * actually connected to, by the outbound client.
 */
export function checkEndpointUrl(deps: Deps, raw: string): string {
  try {
    const url = checkUrl(raw);
    // The URL parser already turned every IPv4 spelling (2130706433, 0x7f.1) into dotted form.
    const host = url.hostname.replace(/^\[|\]$/g, '');
    if (ipaddr.isValid(host)) {
      const verdict = createAddressPolicy({ allowPrivate: deps.config.outbound.allowPrivate })(host);
      if (!verdict.allowed) {
        throw new OutboundError('address_not_allowed', `the address ${host} (${verdict.addressClass}) is not allowed`, { url: redactUrl(url), address: host, addressClass: verdict.addressClass });
      }
    }
    return url.href;
  } catch (error) {
    if (error instanceof OutboundError) throw outboundApiError(error, 'url');
    throw error;
  }
}

export function checkEventTypes(types: string[]): string[] {
  const wrong = types.find((t) => !EVENT_TYPE.test(t));
  if (wrong !== undefined) {
    throw new ApiError('validation_failed', `The event type "${wrong}" is not \`resource.action\`, \`resource.*\` or \`*\`.`, {
      errors: [{ field: 'event_types', code: 'invalid_event_type', message: 'resource.action, resource.* or *' }],
    });
  }
  return [...new Set(types)];
}
