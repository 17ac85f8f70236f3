// The guide's text names only real tools: every snake_case identifier of the instructions and of every
// prompt (rendered with its arguments) is a tool of the generated manifest, or one of the listed other words.

import { describe, expect, it } from 'vitest';
import { toolDescriptors } from '../../src/generated/mcp-tools.ts';
import { GUIDE_INSTRUCTIONS } from '../../src/mcp/guide.ts';
import { EXPLAINED_ONCE } from '../../scripts/codegen/compact-schema.ts';
import { prompts, renderPrompt } from '../../src/mcp/prompts.ts';

const toolNames = new Set(toolDescriptors.map((t) => t.name));
// The prompts' own names, and the arguments, fields and values the texts name that are not tools.
const notTools = new Set([
  ...prompts.map((p) => p.name),
  'wait_seconds',
  'agent_id',
  'website_url',
  'leads_source',
  'postal_address',
  'authorization_url',
  'read_replies',
  'max_pages',
  'csv_url',
  'import_id',
  'required_action',
  'requires_action',
  'email_sequence',
  'sequence_id',
  'pause_reason',
  'created_after',
  'next_cursor',
  'idempotency_key',
]);

const snakeCase = (text: string) => [...new Set(text.match(/\b[a-z][a-z0-9]*(?:_[a-z0-9]+)+\b/g) ?? [])];

const texts: [string, string][] = [
  ['the instructions', GUIDE_INSTRUCTIONS],
  ...prompts.map((p): [string, string] => {
    const args = Object.fromEntries((p.arguments ?? []).map((a) => [a.name, `x`]));
    const rendered = renderPrompt(p.name, args).messages[0].content;
    return [`prompt ${p.name}`, `${p.description ?? ''}\n${rendered.type === 'text' ? rendered.text : ''}`];
  }),
];

describe('the guide text', () => {
  it('explains once every shared argument whose description codegen leaves out of the tools', () => {
    for (const name of EXPLAINED_ONCE) expect(GUIDE_INSTRUCTIONS).toMatch(new RegExp(`\\b${name} is\\b`));
  });

  it.each(texts)('names only tools of the manifest in %s', (_name, text) => {
    const unknown = snakeCase(text).filter((name) => !toolNames.has(name) && !notTools.has(name));
    expect(unknown).toEqual([]);
  });

  it.each(texts)('names at least one tool in %s', (_name, text) => {
    expect(snakeCase(text).filter((name) => toolNames.has(name)).length).toBeGreaterThan(0);
  });

  it('keeps the instructions under 300 tokens (characters / 4)', () => {
    expect(GUIDE_INSTRUCTIONS.length / 4).toBeLessThan(300);
  });

  it('names the run in order: connect, ingest, import, generate, launch', () => {
    const order = [
      'start_connector_oauth',
      'ingest_url_into_knowledge',
      'bulk_import_leads',
      'run_agent',
      'launch_email_sequence',
    ];
    const at = order.map((name) => GUIDE_INSTRUCTIONS.indexOf(name));
    expect(at.every((i) => i >= 0)).toBe(true);
    expect([...at].sort((a, b) => a - b)).toEqual(at);
  });

  it('lists no allowed word that is a tool (the allow-list cannot hide a misspelt tool)', () => {
    expect([...notTools].filter((word) => toolNames.has(word))).toEqual([]);
  });
});
