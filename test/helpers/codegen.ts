// Helpers for the code generator's tests: temp specs and output dirs under .tmp/ (so node_modules resolves
// from emitted code), an Ajv set up as strict tool clients are, an independent strict-profile check, and one
// `tsc --noEmit` over many emitted dirs.
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsImport from 'ajv-formats';
import yaml from 'js-yaml';
import { generate, type GeneratedFile } from '../../scripts/codegen/generate.ts';
import type { Json, JsonObject } from '../../scripts/codegen/load.ts';

export const repoRoot = fileURLToPath(new URL('../../', import.meta.url));
/** The optional corpus of real public documents, beside the checkout where the team keeps it; a clone has none. */
export const sharedSpecsDir = join(repoRoot, '../shared/specs');
const tmpRoot = join(repoRoot, '.tmp');

export const run = promisify(execFile);

/** A fresh directory under .tmp/ (git-ignored); the caller removes it with `removeDir`. */
export function tempDir(label: string): string {
  mkdirSync(tmpRoot, { recursive: true });
  return mkdtempSync(join(tmpRoot, `codegen-${label}-`));
}

export function removeDir(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
}

/** Writes `files` (relative path -> document) under `dir`, as YAML for .yaml names and JSON otherwise. */
export function writeDocuments(dir: string, files: Record<string, Json>): void {
  for (const [name, doc] of Object.entries(files)) {
    const path = join(dir, name);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, /\.ya?ml$/.test(name) ? yaml.dump(doc, { noRefs: true }) : JSON.stringify(doc, null, 2));
  }
}

export function writeFiles(dir: string, files: GeneratedFile[]): void {
  mkdirSync(dir, { recursive: true });
  for (const f of files) writeFileSync(join(dir, f.name), f.content);
}

export interface GeneratedRun {
  files: GeneratedFile[];
  warnings: string[];
  tools: ToolDescriptorJson[];
}

export interface ToolDescriptorJson {
  name: string;
  title: string;
  description: string;
  inputSchema: JsonObject;
  outputSchema?: JsonObject;
  annotations: Record<string, boolean | string>;
  binding: {
    operationId: string;
    method: string;
    path: string;
    body: string;
    contentType?: string;
    args: { name: string; in: string; key: string }[];
  };
}

/** Runs the generator over a spec file (and an optional manifest file), collecting warnings. */
export async function generateFrom(spec: string, manifest?: string): Promise<GeneratedRun> {
  const warnings: string[] = [];
  const files = await generate({ spec, manifest, warn: (m) => warnings.push(m), toolsJson: true });
  const json = files.find((f) => f.name === 'mcp-tools.json');
  const tools = json ? (JSON.parse(json.content) as { tools: ToolDescriptorJson[] }).tools : [];
  return { files, warnings, tools };
}

/** Writes `doc` (and an optional manifest) into `dir` and runs the generator over them. */
export async function generateDoc(dir: string, doc: JsonObject, manifest?: Json): Promise<GeneratedRun> {
  writeDocuments(
    dir,
    manifest === undefined ? { 'openapi.json': doc } : { 'openapi.json': doc, 'mcp-tools.yaml': manifest },
  );
  return generateFrom(join(dir, 'openapi.json'), manifest === undefined ? undefined : join(dir, 'mcp-tools.yaml'));
}

/**
 * Ajv as a strict tool client sees the schemas: JSON Schema 2020-12 (the MCP default dialect), the schema
 * itself validated against the meta-schema, and `strictSchema` on, so an OpenAPI-only keyword (`nullable`,
 * `example`, `discriminator`), an unknown format or a malformed keyword fails to compile. `strictTypes`,
 * `strictTuples` and `strictRequired` stay off: they reject valid JSON Schema (a `properties` without
 * `type`, a prefixItems tuple without maxItems, a `required` in one allOf branch) that clients accept.
 */
export function strictAjv(): InstanceType<typeof Ajv2020> {
  const ajv = new Ajv2020({
    strict: true,
    strictTypes: false,
    strictTuples: false,
    strictRequired: false,
    allowUnionTypes: true,
    validateSchema: true,
    allErrors: true,
  });
  const addFormats = addFormatsImport as unknown as (a: InstanceType<typeof Ajv2020>) => void;
  addFormats(ajv);
  return ajv;
}

/** Returns the compile error for `schema`, or undefined when it compiles. */
export function ajvCompileError(ajv: InstanceType<typeof Ajv2020>, schema: JsonObject): string | undefined {
  try {
    ajv.compile(schema);
    return undefined;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}

const SCHEMA_MAPS = new Set(['properties', 'patternProperties', 'dependentSchemas', '$defs']);
const DATA = new Set(['enum', 'const', 'default', 'examples']);
/** Keywords whose value is one schema, where the Inspector wants an object rather than a bare boolean. */
const SCHEMA_VALUED = new Set(['items', 'contains', 'not', 'propertyNames', 'if', 'then', 'else', 'contentSchema']);

const isNullableTypeList = (type: unknown[]) =>
  type.length === 2 && type.includes('null') && type.every((t) => typeof t === 'string');

/**
 * The strict-client profile, checked independently of the generator's own check: a top-level object with no
 * oneOf/anyOf/allOf, no `$ref` anywhere, and `items` on every array. Also portability as the MCP Inspector's
 * `--strict` check sees it: no `type` list (single-type dialects reject it) and no bare boolean where a schema
 * object is expected. An output schema may write a nullable type as `[type, "null"]`: validators read output
 * schemas, not function-declaration dialects (scripts/codegen/compact-schema.ts).
 */
export function strictProfileProblems(schema: JsonObject, side: 'input' | 'output' = 'input'): string[] {
  const problems: string[] = [];
  if (schema.type !== 'object') problems.push('top: type is not "object"');
  for (const key of ['oneOf', 'anyOf', 'allOf']) if (key in schema) problems.push(`top: ${key}`);
  const walk = (node: Json, path: string, key?: string): void => {
    if (Array.isArray(node)) return node.forEach((n, i) => walk(n, `${path}/${i}`));
    // A boolean in a list or map of schemas (key undefined) or under a one-schema keyword is a boolean schema.
    if (typeof node === 'boolean' && (key === undefined || SCHEMA_VALUED.has(key)))
      problems.push(`${path}: boolean schema`);
    if (node === null || typeof node !== 'object') return;
    if ('$ref' in node) problems.push(`${path}: $ref`);
    if (Array.isArray(node.type) && !(side === 'output' && isNullableTypeList(node.type)))
      problems.push(`${path}: type list`);
    const types = Array.isArray(node.type) ? node.type : [node.type];
    if (types.includes('array') && node.items === undefined) problems.push(`${path}: array without items`);
    for (const [key, child] of Object.entries(node)) {
      if (DATA.has(key) || key === 'required' || key === 'type') continue;
      if (SCHEMA_MAPS.has(key) && child && typeof child === 'object' && !Array.isArray(child)) {
        for (const [name, sub] of Object.entries(child)) walk(sub, `${path}/${key}/${name}`);
      } else walk(child, `${path}/${key}`, key);
    }
  };
  walk(schema, '');
  return problems;
}

/**
 * Type-checks every .ts file under `dirs` in one `tsc --noEmit` run, with a tsconfig that extends the
 * project's. Returns tsc's output (empty when clean).
 */
export async function typecheck(dirs: string[], label = 'typecheck'): Promise<string> {
  const dir = tempDir(label);
  const config = {
    extends: relative(dir, join(repoRoot, 'tsconfig.json')),
    compilerOptions: { noEmit: true, incremental: false },
    include: dirs.map((d) => `${relative(dir, d)}/**/*.ts`),
    exclude: [],
  };
  writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify(config, null, 2));
  try {
    await run(process.execPath, [join(repoRoot, 'node_modules/typescript/bin/tsc'), '-p', join(dir, 'tsconfig.json')], {
      cwd: repoRoot,
      maxBuffer: 64 * 1024 * 1024,
    });
    return '';
  } catch (error) {
    const e = error as { stdout?: string; stderr?: string; message: string };
    return `${e.stdout ?? ''}${e.stderr ?? ''}` || e.message;
  } finally {
    removeDir(dir);
  }
}

const TOOL_NAME = /^[a-zA-Z0-9_-]{1,64}$/;

/** Names that are not valid tool names, and names used twice. */
export function toolNameProblems(names: string[]): string[] {
  const seen = new Set<string>();
  const problems: string[] = [];
  for (const name of names) {
    if (!TOOL_NAME.test(name)) problems.push(`invalid: ${name}`);
    if (seen.has(name)) problems.push(`duplicate: ${name}`);
    seen.add(name);
  }
  return problems;
}
