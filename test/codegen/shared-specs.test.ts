// Generality on real public documents: the optional corpus in ../shared/specs/ (beside the checkout where the
// team keeps it; a clone has nothing there). Each must generate; tool names must be unique and valid; every
// tool schema must compile in a strict Ajv and meet the strict-client profile; everything emitted must
// type-check in one tsc run. Without the corpus these are skipped, saying why: the same guarantees run on
// repository-owned documents of the same shapes in hard-specs.test.ts.
import { existsSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TOOL_SCHEMA_BUDGET } from '../../scripts/codegen/tools.ts';
import {
  ajvCompileError,
  generateFrom,
  removeDir,
  repoRoot,
  sharedSpecsDir,
  strictAjv,
  strictProfileProblems,
  tempDir,
  toolNameProblems,
  typecheck,
  writeFiles,
  type GeneratedRun,
} from '../helpers/codegen.ts';

const present = existsSync(sharedSpecsDir);
const absent = `${relative(repoRoot, sharedSpecsDir)} is absent: this corpus is optional (its shapes are covered by hard-specs.test.ts)`;
if (!present) console.warn(`shared-specs.test.ts skipped: ${absent}`);
const specs = present
  ? readdirSync(sharedSpecsDir)
      .filter((f) => /\.(ya?ml|json)$/.test(f))
      .sort()
  : [];
const runs = new Map<string, GeneratedRun | Error>();
let root: string;

function generated(spec: string): GeneratedRun {
  const result = runs.get(spec);
  if (result instanceof Error) throw result;
  if (!result) throw new Error(`${spec} was not generated`);
  return result;
}

describe.skipIf(!present)(
  present ? 'codegen on the shared real documents' : `codegen on the shared real documents (skipped: ${absent})`,
  () => {
    beforeAll(async () => {
      root = tempDir('shared');
      for (const spec of specs) {
        try {
          const result = await generateFrom(join(sharedSpecsDir, spec));
          writeFiles(join(root, spec), result.files);
          runs.set(spec, result);
        } catch (error) {
          runs.set(spec, error as Error);
        }
      }
    }, 120_000);
    afterAll(() => removeDir(root));

    it('finds the documents', () => {
      expect(specs.length).toBeGreaterThanOrEqual(6);
    });

    it.each(specs)('generates %s', (spec) => {
      expect(generated(spec).tools.length).toBeGreaterThan(0);
    });

    it.each(specs)('gives the tools of %s unique, valid names', (spec) => {
      expect(toolNameProblems(generated(spec).tools.map((t) => t.name))).toEqual([]);
    });

    it.each(specs)(
      'emits tool schemas for %s that compile in a strict Ajv, meet the strict profile and fit the size budget',
      (spec) => {
        const ajv = strictAjv();
        const problems: string[] = [];
        for (const tool of generated(spec).tools) {
          for (const [kind, schema] of [
            ['inputSchema', tool.inputSchema],
            ['outputSchema', tool.outputSchema],
          ] as const) {
            if (!schema) continue;
            const error = ajvCompileError(ajv, schema);
            if (error) problems.push(`${tool.name}.${kind}: ${error}`);
            problems.push(
              ...strictProfileProblems(schema, kind === 'inputSchema' ? 'input' : 'output').map(
                (p) => `${tool.name}.${kind}: ${p}`,
              ),
            );
            if (JSON.stringify(schema).length > TOOL_SCHEMA_BUDGET)
              problems.push(`${tool.name}.${kind}: over the size budget`);
          }
        }
        expect(problems).toEqual([]);
      },
    );

    it('names every radarr operation (none has an operationId) from its method and path', () => {
      const { tools } = generated('radarr.openapi.json');
      expect(tools).toHaveLength(238);
      for (const tool of tools)
        expect(tool.name).toMatch(/^(get|put|post|delete|patch|head|options|trace)_[a-z0-9_-]+$/);
    });

    it("keeps twilio's StartTime< and StartTime> apart, recording the real keys", () => {
      const tool = generated('twilio_api_v2010.yaml').tools.find((t) =>
        t.binding.args.some((a) => a.key === 'StartTime<'),
      )!;
      const args = tool.binding.args.filter((a) => a.key.startsWith('StartTime'));
      expect(args.map((a) => [a.name, a.key])).toEqual([
        ['StartTime', 'StartTime'],
        ['StartTime_lt', 'StartTime<'],
        ['StartTime_gt', 'StartTime>'],
      ]);
    });

    it("merges twilio's form-encoded bodies into the arguments", () => {
      const tool = generated('twilio_api_v2010.yaml').tools.find(
        (t) => t.binding.contentType === 'application/x-www-form-urlencoded',
      )!;
      expect(tool.binding.body).toBe('merged');
      expect(tool.binding.args.some((a) => a.in === 'body')).toBe(true);
    });

    it('keeps the Authorization header out of every tool', () => {
      for (const spec of specs) {
        for (const tool of generated(spec).tools)
          expect(tool.binding.args.filter((a) => a.in === 'header' && a.key.toLowerCase() === 'authorization')).toEqual(
            [],
          );
      }
    });

    it('type-checks everything it emitted, in one tsc run', async () => {
      const output = await typecheck(
        specs.map((s) => join(root, s)),
        'shared-tsc',
      );
      expect(output).toBe('');
    }, 180_000);
  },
);
