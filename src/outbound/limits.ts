// Limits on what a response may be: its media type, and its size counted after decompression while
// it streams, so a compression bomb is cut off after maxBytes instead of being inflated in memory.
import { OutboundError } from './outbound-error.ts';

/** The media type without parameters, lower-cased (`text/csv; charset=utf-8` -> `text/csv`). */
export function mediaType(contentType: string | null): string | undefined {
  const essence = contentType?.split(';')[0].trim().toLowerCase();
  return essence || undefined;
}

/** Matches `type/subtype` exactly, or `type/*`. An empty or missing list allows anything. */
export function checkMediaType(contentType: string | null, accept: readonly string[] | undefined, url: string): void {
  if (!accept || accept.length === 0) return;
  const type = mediaType(contentType);
  const allowed =
    type !== undefined &&
    accept.some((pattern) => {
      const want = pattern.toLowerCase();
      return want.endsWith('/*') ? type.startsWith(want.slice(0, -1)) : type === want;
    });
  if (!allowed) {
    throw new OutboundError(
      'unsupported_media_type',
      `the response is ${type ?? 'of no declared type'}, expected ${accept.join(' or ')}`,
      {
        url,
        contentType: type,
      },
    );
  }
}

function tooLarge(maxBytes: number, url: string): OutboundError {
  return new OutboundError('response_too_large', `the response is larger than ${maxBytes} bytes`, {
    url,
    limitBytes: maxBytes,
  });
}

/**
 * Refuses early when an uncompressed response declares a length over the cap. A compressed one's
 * Content-Length says nothing about its decoded size, so only the streaming count decides there.
 */
export function checkDeclaredLength(headers: Headers, maxBytes: number, url: string): void {
  if (headers.get('content-encoding')) return;
  const declared = Number(headers.get('content-length') ?? NaN);
  if (Number.isFinite(declared) && declared > maxBytes) throw tooLarge(maxBytes, url);
}

export interface LimitBodyOptions {
  maxBytes: number;
  url: string;
  /** Turns a read failure (abort, reset, bad encoding) into the error the reader sees. */
  mapError: (error: unknown) => unknown;
  /** Called once when the body ends, fails, or is cancelled (to release the call's timer). */
  onSettled: () => void;
}

/**
 * A pull-based copy of `source` that counts bytes as they are read: with a high-water mark of 0
 * nothing is read ahead of the consumer, so a large body never sits in memory, and reading stops
 * (and the connection is dropped) as soon as the count passes the cap.
 */
export function limitBody(source: ReadableStream<Uint8Array>, options: LimitBodyOptions): ReadableStream<Uint8Array> {
  const reader = source.getReader();
  let received = 0;
  let settled = false;
  const settle = () => {
    if (!settled) options.onSettled();
    settled = true;
  };
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        let chunk: ReadableStreamReadResult<Uint8Array>;
        try {
          chunk = await reader.read();
        } catch (error) {
          settle();
          controller.error(options.mapError(error));
          return;
        }
        if (chunk.done) {
          settle();
          controller.close();
          return;
        }
        received += chunk.value.byteLength;
        if (received > options.maxBytes) {
          settle();
          reader.cancel().catch(() => {});
          controller.error(tooLarge(options.maxBytes, options.url));
          return;
        }
        controller.enqueue(chunk.value);
      },
      async cancel(reason) {
        settle();
        await reader.cancel(reason);
      },
    },
    { highWaterMark: 0 },
  );
}
