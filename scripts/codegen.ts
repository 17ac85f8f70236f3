// Entry of the code generator: load the contract and tool manifest -> build the model -> emit every
// file of src/generated/ -> write them, or with --check compare them and exit 1 naming stale files.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { generate } from './codegen/generate.ts';

const { values } = parseArgs({
  options: {
    spec: { type: 'string', default: 'openapi/openapi.yaml' },
    manifest: { type: 'string' },
    out: { type: 'string', default: 'src/generated' },
    check: { type: 'boolean', default: false },
  },
});

const spec = values.spec as string;
const defaultManifest = values.spec === 'openapi/openapi.yaml' ? 'mcp-tools.yaml' : undefined;
const manifest = values.manifest ?? defaultManifest;
const out = resolve(values.out as string);

try {
  const files = await generate({ spec, manifest, warn: (msg) => console.warn(msg) });
  if (values.check) {
    const stale = files.filter((f) => {
      const path = join(out, f.name);
      return !existsSync(path) || readFileSync(path, 'utf8') !== f.content;
    });
    if (stale.length) {
      console.error(`generated files are stale: ${stale.map((f) => relative(process.cwd(), join(out, f.name))).join(', ')}`);
      console.error('regenerate with npm run codegen');
      process.exit(1);
    }
    console.log(`generated files are up to date (${files.length} files in ${relative(process.cwd(), out) || '.'})`);
  } else {
    mkdirSync(out, { recursive: true });
    for (const f of files) writeFileSync(join(out, f.name), f.content);
    console.log(`wrote ${files.length} files to ${relative(process.cwd(), out) || '.'}`);
  }
} catch (error) {
  console.error(`codegen failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}
