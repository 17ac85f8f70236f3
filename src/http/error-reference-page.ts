// GET /docs/errors: every wire error code (src/errors.ts) with its status, what it means and what to do,
// one row per code whose id is the code, so a problem's `type` (/docs/errors#<code>) opens its row.
import { html, raw } from 'hono/html';
import type { HtmlEscapedString } from 'hono/utils/html';
import { errorReference } from '../error-reference.ts';
import { errorStatus, type ErrorCode } from '../errors.ts';
import { pageHeaders } from './security-headers.ts';

export const errorReferenceStylesheet = `body{font:15px/1.5 system-ui,sans-serif;margin:2rem auto;max-width:72rem;padding:0 1rem;color:#1d1d1f}
table{border-collapse:collapse;width:100%}th,td{text-align:left;vertical-align:top;padding:.5rem;border-bottom:1px solid #ddd}
th{background:#f4f4f5}code{font:13px ui-monospace,monospace;background:#f4f4f5;padding:0 .2rem;border-radius:3px}
tr:target{background:#fff6d6}td:first-child{white-space:nowrap}`;

// The entries' texts mark code with backticks, as the Markdown guides do.
function withCode(text: string): HtmlEscapedString | Promise<HtmlEscapedString> {
  const parts = text.split('`');
  return html`${parts.map((part, i) => (i % 2 === 1 ? html`<code>${part}</code>` : html`${part}`))}`;
}

function row(code: ErrorCode) {
  const entry = errorReference[code];
  return html`<tr id="${code}"><td><a href="#${code}"><code>${code}</code></a></td><td>${errorStatus[code]}</td><td>${withCode(entry.meaning)}</td><td>${withCode(entry.remedy)}</td></tr>`;
}

export async function errorReferencePage(): Promise<string> {
  const codes = (Object.keys(errorStatus) as ErrorCode[]).sort(
    (a, b) => errorStatus[a] - errorStatus[b] || a.localeCompare(b),
  );
  const page = html`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Error reference</title>
<link rel="icon" href="/favicon.ico"><link rel="stylesheet" href="/docs/errors.css"></head>
<body><h1>Error reference</h1>
<p>Every error is <code>application/problem+json</code> (RFC 9457). Act on <code>code</code>; its <code>type</code> is
<code>/docs/errors#&lt;code&gt;</code>, this page's row for it. <code>detail</code> says what happened, <code>errors[]</code>
names the fields at fault, and <code>request_id</code> is what to quote when reporting a fault.
The <a href="/docs">API reference</a> lists which operation answers which.</p>
<table><thead><tr><th>code</th><th>status</th><th>meaning</th><th>what to do</th></tr></thead>
<tbody>${raw((await Promise.all(codes.map((code) => row(code)))).join('\n'))}</tbody></table>
</body></html>`;
  return String(await page);
}

export const errorReferenceHeaders = {
  ...pageHeaders,
  'Content-Type': 'text/html; charset=utf-8',
  'Cache-Control': 'no-cache',
};
