import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import yaml from 'js-yaml';
import { describe, expect, it } from 'vitest';
import { emitRegistry } from '../../scripts/codegen/emit-registry.ts';
import { buildModel } from '../../scripts/codegen/model.ts';
import { type loadSpec } from '../../scripts/codegen/load.ts';
import { repoRoot } from '../helpers/codegen.ts';

const operation = (operationId: string, tags?: string[]) => ({
  operationId,
  ...(tags && { tags }),
  responses: { '204': { description: 'done' } },
});
const model = (paths: Record<string, unknown>) =>
  buildModel({ doc: { openapi: '3.1.0', info: { title: 't', version: '1' }, paths } } as unknown as ReturnType<
    typeof loadSpec
  >);

describe('emitRegistry', () => {
  it('imports each operation from <handlers>/<first tag>/<operationId in kebab-case>.ts and maps its handle', () => {
    const text = emitRegistry(
      model({ '/leads': { post: operation('bulk_import_leads', ['leads', 'imports']) } }),
      '// header\n',
      '../handlers',
    );
    expect(text).toContain(`import * as bulkImportLeads from '../handlers/leads/bulk-import-leads.ts';`);
    expect(text).toContain('  bulk_import_leads: bulkImportLeads.handle,');
  });

  it('refuses an operation without a tag, since its folder is named after one', () => {
    expect(() => emitRegistry(model({ '/x': { get: operation('get_x') } }), '', '../handlers')).toThrow(
      /get_x has no tag/,
    );
  });

  it('names a module for every operation of the repository contract', () => {
    const doc = yaml.load(readFileSync(join(repoRoot, 'openapi/openapi.yaml'), 'utf8')) as {
      paths: Record<string, Record<string, { operationId?: string }>>;
    };
    const ids = Object.values(doc.paths).flatMap((item) =>
      Object.values(item).flatMap((op) => (op?.operationId ? [op.operationId] : [])),
    );
    const registry = readFileSync(join(repoRoot, 'src/generated/registry.ts'), 'utf8');
    for (const id of ids) expect(registry, id).toMatch(new RegExp(`^  ${id}: [a-zA-Z]+\\.handle,$`, 'm'));
  });
});
