// Tool schemas are bounded by size, not only by depth: a large mutually recursive group (Stripe has one of 71
// schemas) must generate, with every tool schema within the per-tool budget and each cut branch described.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JsonObject } from '../../scripts/codegen/load.ts';
import { TOOL_SCHEMA_BUDGET } from '../../scripts/codegen/tools.ts';
import {
  ajvCompileError,
  generateDoc,
  removeDir,
  strictAjv,
  strictProfileProblems,
  tempDir,
  type GeneratedRun,
  type ToolDescriptorJson,
} from '../helpers/codegen.ts';
import { recursiveGroup } from './synthetic-recursive-group.ts';

const SIZE = 72;
const doc = recursiveGroup(SIZE);
const memberProperties = Object.keys(
  (((doc.components as JsonObject).schemas as JsonObject).Object0 as JsonObject).properties as JsonObject,
);
let root: string;
let run: GeneratedRun;

beforeAll(async () => {
  root = tempDir('budget');
  run = await generateDoc(root, doc);
}, 120_000);
afterAll(() => removeDir(root));

const tool = (name: string): ToolDescriptorJson => run.tools.find((t) => t.name === name)!;
const schemasOf = (t: ToolDescriptorJson) =>
  [t.inputSchema, t.outputSchema].filter((s): s is JsonObject => s !== undefined);

/** Every sub-schema whose description says it was cut. */
function cuts(node: unknown, found: JsonObject[] = []): JsonObject[] {
  if (Array.isArray(node)) node.forEach((n) => cuts(n, found));
  else if (node && typeof node === 'object') {
    const o = node as JsonObject;
    if (typeof o.description === 'string' && o.description.includes('omitted')) found.push(o);
    Object.values(o).forEach((v) => cuts(v, found));
  }
  return found;
}

describe('tool schemas of a 72-schema mutually recursive group', () => {
  it('makes a tool of every operation', () => {
    expect(run.tools).toHaveLength(SIZE * 3);
  });

  it('keeps every tool schema within the per-tool size budget', () => {
    const over = run.tools
      .flatMap((t) => schemasOf(t).map((s) => [t.name, JSON.stringify(s).length] as const))
      .filter(([, size]) => size > TOOL_SCHEMA_BUDGET);
    expect(over).toEqual([]);
  });

  it('keeps the top level of an object output whole', () => {
    expect(Object.keys(tool('get_object_0').outputSchema!.properties as JsonObject)).toEqual(memberProperties);
  });

  it('cuts a deeper branch to a described open object naming its schema', () => {
    const found = cuts(tool('get_object_0').outputSchema);
    expect(found.length).toBeGreaterThan(0);
    expect(found).toContainEqual({
      type: 'object',
      description: expect.stringMatching(
        /^Object\d+: nested schema omitted at the depth\/size budget; see the API reference\.$/,
      ),
    });
  });

  it('emits schemas that compile in a strict Ajv and meet the strict profile', () => {
    const ajv = strictAjv();
    const problems = run.tools.flatMap((t) =>
      schemasOf(t).flatMap((s) =>
        [ajvCompileError(ajv, s), ...strictProfileProblems(s, s === t.inputSchema ? 'input' : 'output')]
          .filter(Boolean)
          .map((p) => `${t.name}: ${p}`),
      ),
    );
    expect(problems).toEqual([]);
  });

  it('emits the types and the routes of the group', () => {
    const file = (name: string) => run.files.find((f) => f.name === name)!.content;
    expect(file('types.ts')).toContain('Object71: {');
    expect(file('routes.ts')).toContain('Object71Schema');
  });
});
