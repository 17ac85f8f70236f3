// The response a caller gets: status and headers at once, the body as a size-limited stream (or
// async iterator) for large downloads, and text()/json() for small ones under the same cap.
import { mediaType } from './limits.ts';
import { OutboundError } from './outbound-error.ts';

export interface OutboundResponse {
  status: number;
  ok: boolean;
  /** The final URL, after redirects. */
  url: string;
  /** Every URL redirected through, in order (empty when the first answer was final). */
  redirects: string[];
  headers: Headers;
  /** The media type without parameters, lower-cased. */
  mediaType?: string;
  /** The decoded body, limited to maxBytes as it streams; errors with an OutboundError. */
  body: ReadableStream<Uint8Array>;
  /** The body as an async iterator of chunks (same stream, same limits). */
  chunks(): AsyncIterable<Uint8Array>;
  text(): Promise<string>;
  json(): Promise<unknown>;
  /** Drops the body unread and releases the connection. */
  cancel(): Promise<void>;
}

async function* iterate(body: ReadableStream<Uint8Array>): AsyncGenerator<Uint8Array> {
  const reader = body.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      yield value;
    }
  } finally {
    // Leaving the loop early (break, throw) must not leave the download running.
    await reader.cancel().catch(() => {});
  }
}

/** The charset named by Content-Type when TextDecoder knows it, else UTF-8. */
function decoderFor(contentType: string | null): TextDecoder {
  const charset = /;\s*charset="?([^";\s]+)"?/i.exec(contentType ?? '')?.[1];
  try {
    return new TextDecoder(charset ?? 'utf-8');
  } catch {
    return new TextDecoder('utf-8');
  }
}

export interface ResponseParts {
  status: number;
  url: string;
  redirects: string[];
  headers: Headers;
  body: ReadableStream<Uint8Array>;
}

export function outboundResponse(parts: ResponseParts): OutboundResponse {
  const { body, headers } = parts;
  const text = async () => {
    const decoder = decoderFor(headers.get('content-type'));
    let out = '';
    for await (const chunk of iterate(body)) out += decoder.decode(chunk, { stream: true });
    return out + decoder.decode();
  };
  return {
    status: parts.status,
    ok: parts.status >= 200 && parts.status < 300,
    url: parts.url,
    redirects: parts.redirects,
    headers,
    mediaType: mediaType(headers.get('content-type')),
    body,
    chunks: () => iterate(body),
    text,
    async json() {
      const source = await text();
      try {
        return JSON.parse(source) as unknown;
      } catch (error) {
        throw new OutboundError('response_invalid', 'the response is not valid JSON', { url: parts.url }, error);
      }
    },
    cancel: () => body.cancel(),
  };
}
