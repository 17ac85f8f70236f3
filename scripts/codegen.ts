// Entry of the code generator: load the contract and tool manifest -> build the model -> emit every
// file of src/generated/ (and, for the repository's own contract, the generated parts of packages/) ->
// write them, or with --check compare them and exit 1 naming stale files.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { generate, headerText, type GeneratedFile } from './codegen/generate.ts';
import { emitPackages } from './codegen/emit-packages.ts';
import { loadSpec } from './codegen/load.ts';

const { values } = parseArgs({
  options: {
    spec: { type: 'string', default: 'openapi/openapi.yaml' },
    manifest: { type: 'string' },
    out: { type: 'string', default: 'src/generated' },
    check: { type: 'boolean', default: false },
    // The folder holding packages/ (default: the repository, for its own contract; other specs have none).
    packages: { type: 'string' },
  },
});

const spec = values.spec;
const defaultManifest = values.spec === 'openapi/openapi.yaml' ? 'mcp-tools.yaml' : undefined;
const manifest = values.manifest ?? defaultManifest;
const out = resolve(values.out);
const packagesRoot = values.packages ?? (values.spec === 'openapi/openapi.yaml' ? '.' : undefined);

function packageFiles(): GeneratedFile[] {
  if (packagesRoot === undefined) return [];
  const info = loadSpec(spec).doc.info as { version?: unknown } | undefined;
  const rootPackage = JSON.parse(readFileSync('package.json', 'utf8')) as { dependencies: Record<string, string> };
  const files = emitPackages({
    version: String(info?.version ?? '0.0.0'),
    dependencyRanges: rootPackage.dependencies,
    headerText: headerText(spec, manifest),
  });
  return files.map((f) => ({ name: resolve(packagesRoot, f.name), content: f.content }));
}

function staleFiles(files: GeneratedFile[], dir: string): string[] {
  return files
    .filter((f) => {
      const path = resolve(dir, f.name);
      return !existsSync(path) || readFileSync(path, 'utf8') !== f.content;
    })
    .map((f) => relative(process.cwd(), resolve(dir, f.name)));
}

try {
  // The repository's own contract also gets the handler registry (src/handlers/<tag>/<operation>.ts).
  const handlersDir = values.spec === 'openapi/openapi.yaml' ? '../handlers' : undefined;
  const files = await generate({ spec, manifest, handlersDir, warn: (msg) => console.warn(msg) });
  const packaged = packageFiles();
  if (values.check) {
    const stale = [...staleFiles(files, out), ...staleFiles(packaged, process.cwd())];
    if (stale.length) {
      console.error(`generated files are stale: ${stale.join(', ')}`);
      console.error('regenerate with npm run codegen');
      process.exit(1);
    }
    console.log(`generated files are up to date (${files.length} files in ${relative(process.cwd(), out) || '.'})`);
    if (packaged.length) console.log(`package files are up to date (${packaged.length} files in packages)`);
  } else {
    mkdirSync(out, { recursive: true });
    for (const f of files) writeFileSync(join(out, f.name), f.content);
    console.log(`wrote ${files.length} files to ${relative(process.cwd(), out) || '.'}`);
    for (const f of packaged) {
      mkdirSync(dirname(f.name), { recursive: true });
      writeFileSync(f.name, f.content);
    }
    if (packaged.length) console.log(`wrote ${packaged.length} files to packages`);
  }
} catch (error) {
  console.error(`codegen failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}
