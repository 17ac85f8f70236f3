// One structured call to an OpenAI-compatible chat-completions endpoint, for the store agents' optional
// model writers: sends a system and a user message with a strict json_schema response format and returns
// the parsed JSON content. Every way the model side can go wrong becomes one ModelWriterFailure reason, so
// the writer can fall back to its deterministic templates. Nothing here retries: the fallback is cheaper
// than a second model call.
import { z } from 'zod';

export interface ModelWriterConfig {
  baseUrl: string;
  apiKey: string;
  model: string;
  timeoutMs: number;
}

export type ModelFailureReason =
  | 'timeout'
  | 'rate_limited'
  | 'refused'
  | 'malformed_output'
  | 'http_error'
  | 'unreachable';

/** Why the model could not write. Messages never carry the API key. */
export class ModelWriterFailure extends Error {
  constructor(
    readonly reason: ModelFailureReason,
    message: string,
  ) {
    super(message);
    this.name = 'ModelWriterFailure';
  }
}

export interface StructuredRequest {
  system: string;
  user: string;
  /** The json_schema's name, e.g. `email_sequence`. */
  name: string;
  schema: Record<string, unknown>;
}

const EXCERPT_CHARS = 200;

/** Where an answer breaks a contract, short enough for a log line. */
export function describeIssues(error: z.ZodError): string {
  return error.issues
    .slice(0, 5)
    .map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`)
    .join('; ');
}

function excerpt(text: string, apiKey: string): string {
  let detail = text;
  try {
    const message = (JSON.parse(text) as { error?: { message?: unknown } }).error?.message;
    if (typeof message === 'string') detail = message;
  } catch {
    // Not JSON: the raw text is the best description there is.
  }
  // Some compatible servers echo the key they refused; it must not reach our logs.
  const clean = apiKey ? detail.split(apiKey).join('[redacted]') : detail;
  return clean.replace(/\s+/g, ' ').trim().slice(0, EXCERPT_CHARS);
}

function statusFailure(status: number, headers: Headers, text: string, apiKey: string): ModelWriterFailure {
  const detail = excerpt(text, apiKey);
  const suffix = detail ? `: ${detail}` : '';
  if (status === 429) {
    const retryAfter = headers.get('retry-after');
    return new ModelWriterFailure(
      'rate_limited',
      `the model endpoint is rate limiting us (429${retryAfter ? `, retry after ${retryAfter.slice(0, 20)} s` : ''})${suffix}`,
    );
  }
  return new ModelWriterFailure('http_error', `the model endpoint answered ${status}${suffix}`);
}

const ChatCompletion = z.object({
  choices: z
    .array(
      z.object({
        finish_reason: z.string().nullish(),
        message: z.object({ content: z.string().nullish(), refusal: z.string().nullish() }),
      }),
    )
    .min(1),
});

function parseCompletion(text: string): unknown {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new ModelWriterFailure('malformed_output', 'the model endpoint answered 2xx without a JSON body');
  }
  const completion = ChatCompletion.safeParse(json);
  if (!completion.success)
    throw new ModelWriterFailure(
      'malformed_output',
      `the answer is not a chat completion (${describeIssues(completion.error)})`,
    );
  const [{ message, finish_reason: finish }] = completion.data.choices;
  if (message.refusal)
    throw new ModelWriterFailure('refused', `the model refused: ${message.refusal.slice(0, EXCERPT_CHARS)}`);
  if (finish === 'content_filter')
    throw new ModelWriterFailure('refused', 'the model endpoint withheld the answer (content_filter)');
  try {
    return JSON.parse(message.content ?? '');
  } catch {
    throw new ModelWriterFailure(
      'malformed_output',
      `the model's content is not JSON${finish === 'length' ? ' (cut off at the token limit)' : ''}`,
    );
  }
}

/** A failure before any answer arrived. The caller's own abort is rethrown as is: that is not the model failing. */
function transportFailure(
  error: unknown,
  timeout: AbortSignal,
  timeoutMs: number,
  callerSignal?: AbortSignal,
): unknown {
  if (callerSignal?.aborted && !timeout.aborted) return callerSignal.reason;
  if (timeout.aborted)
    return new ModelWriterFailure('timeout', `the model endpoint did not answer within ${timeoutMs} ms`);
  const code = (error as { cause?: { code?: unknown } }).cause?.code;
  return new ModelWriterFailure(
    'unreachable',
    `the model endpoint could not be reached (${typeof code === 'string' ? code : (error as Error).name})`,
  );
}

/**
 * Asks for one structured answer and returns its parsed JSON content, unchecked (the caller validates it
 * against its own contract). Throws ModelWriterFailure on every model-side failure, or the caller's abort
 * reason when `options.signal` fires first.
 */
export async function completeStructured(
  config: ModelWriterConfig,
  request: StructuredRequest,
  options: { fetch?: typeof fetch; signal?: AbortSignal } = {},
): Promise<unknown> {
  const timeout = AbortSignal.timeout(config.timeoutMs);
  const signal = options.signal ? AbortSignal.any([timeout, options.signal]) : timeout;
  const body = JSON.stringify({
    model: config.model,
    messages: [
      { role: 'system', content: request.system },
      { role: 'user', content: request.user },
    ],
    response_format: { type: 'json_schema', json_schema: { name: request.name, strict: true, schema: request.schema } },
    temperature: 0.2,
  });
  let answer: { status: number; headers: Headers; text: string };
  try {
    const response = await (options.fetch ?? fetch)(`${config.baseUrl.replace(/\/+$/, '')}/chat/completions`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${config.apiKey}`,
        'content-type': 'application/json',
        accept: 'application/json',
      },
      body,
      // A redirect would carry the key to wherever it points; the endpoint is configuration, so it needs none.
      redirect: 'manual',
      signal,
    });
    answer = { status: response.status, headers: response.headers, text: await response.text() };
  } catch (error) {
    throw transportFailure(error, timeout, config.timeoutMs, options.signal);
  }
  if (answer.status < 200 || answer.status > 299)
    throw statusFailure(answer.status, answer.headers, answer.text, config.apiKey);
  return parseCompletion(answer.text);
}
