// Checks shared by create and update: the URL (user input we will POST to) and the event types.
import { checkUserUrl } from '../../outbound/user-url.ts';
import type { Deps } from '../../deps.ts';
import { ApiError } from '../../errors.ts';

const EVENT_TYPE = /^([a-z_]+\.([a-z_]+|\*)|\*)$/;

/** The URL as it will be called (see checkUserUrl: host names are judged at each delivery). */
export function checkEndpointUrl(deps: Deps, raw: string): string {
  return checkUserUrl(raw, { allowPrivate: deps.config.outbound.allowPrivate, field: 'url' }).href;
}

export function checkEventTypes(types: string[]): string[] {
  const wrong = types.find((t) => !EVENT_TYPE.test(t));
  if (wrong !== undefined) {
    throw new ApiError(
      'validation_failed',
      `The event type "${wrong}" is not \`resource.action\`, \`resource.*\` or \`*\`.`,
      {
        errors: [{ field: 'event_types', code: 'invalid_event_type', message: 'resource.action, resource.* or *' }],
      },
    );
  }
  return [...new Set(types)];
}
