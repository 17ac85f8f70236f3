// How the sandbox Graph API (meta-ads-api.ts) reads a request's parameters and answers errors, in Graph's shape.
import type { Context } from 'hono';

export function graphError(status: number, message: string, type: string, code: number): Response {
  return new Response(JSON.stringify({ error: { message, type, code, fbtrace_id: 'sandbox' } }), {
    status,
    headers: { 'content-type': 'application/json' },
  });
}

export async function params(c: Context): Promise<URLSearchParams> {
  const query = new URL(c.req.url).searchParams;
  if (c.req.method !== 'POST') return query;
  const form = new URLSearchParams(await c.req.text());
  for (const [k, v] of query) if (!form.has(k)) form.set(k, v);
  return form;
}

export function parseJson(value: string): unknown {
  try {
    return JSON.parse(value);
  } catch {
    return undefined;
  }
}

export function missingObject(id: string): Response {
  return graphError(
    400,
    `Unsupported get request. Object with ID '${id}' does not exist.`,
    'GraphMethodException',
    100,
  );
}
