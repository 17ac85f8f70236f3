// The checks a URL must pass before any hop is sent: it parses, it is http(s), it carries no
// credentials. Addresses are not judged here: that happens at connect time (connector.ts), on the
// address actually connected to.
import { OutboundError } from './outbound-error.ts';

const allowedSchemes = new Set(['http:', 'https:']);

/** The URL without userinfo, for messages and details (never echo a password back). */
export function redactUrl(url: URL): string {
  const copy = new URL(url.href);
  copy.username = '';
  copy.password = '';
  return copy.href;
}

export function checkUrl(input: string | URL, base?: URL): URL {
  let url: URL;
  try {
    url = new URL(input, base);
  } catch {
    throw new OutboundError('url_invalid', 'the URL cannot be parsed');
  }
  if (!allowedSchemes.has(url.protocol)) {
    throw new OutboundError(
      'url_scheme_not_allowed',
      `the scheme ${url.protocol} is not allowed (http: or https: only)`,
      {
        url: url.protocol,
      },
    );
  }
  if (url.username !== '' || url.password !== '') {
    throw new OutboundError('url_credentials_not_allowed', 'the URL must not carry a user name or password', {
      url: redactUrl(url),
    });
  }
  url.hash = '';
  return url;
}
