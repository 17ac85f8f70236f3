// Reads mcp-tools.yaml and applies it to the operation model: names, titles, descriptions, annotations,
// toolsets and exclusions. Every mistake fails codegen with a message naming the entry.
import { existsSync, readFileSync } from 'node:fs';
import yaml from 'js-yaml';
import { isObject, type JsonObject } from './load.ts';
import { isBrowserOnly, type OperationModel } from './model.ts';
import { isValidToolName } from './naming.ts';

export interface ToolOverride {
  name?: string;
  title?: string;
  description?: string;
  annotations?: JsonObject;
  toolset?: string;
  exclude?: boolean;
  reason?: string;
}

/**
 * A named group of tools a connection can ask for. A plain toolset is the home of the tools whose entry names
 * it; a curated one (`tools:` in the manifest) lists tools of any home, for one job (the agent run).
 */
export interface ToolsetDefinition {
  description: string;
  /** Curated toolsets only: the tool names, in the order a connection lists them. */
  tools?: string[];
}

export interface Manifest {
  /** The file the manifest came from, to name it in messages. */
  label: string;
  toolsets: Map<string, ToolsetDefinition>;
  /** A Map, not an object: operationIds such as `constructor` or `__proto__` must not find inherited members. */
  tools: Map<string, ToolOverride>;
  /**
   * Whether a manifest was given. A contract with one must exclude its browser-only operations there; without
   * one (a third-party document), they are left out with a warning.
   */
  given: boolean;
}

export class ManifestError extends Error {}

const STRING_FIELDS = ['name', 'title', 'description', 'toolset', 'reason'] as const;
const ENTRY_FIELDS = new Set<string>([...STRING_FIELDS, 'annotations', 'exclude']);
const HINTS = new Set(['readOnlyHint', 'destructiveHint', 'idempotentHint', 'openWorldHint']);

export function loadManifest(file: string | undefined): Manifest {
  if (!file) return { label: 'manifest', toolsets: new Map(), tools: new Map(), given: false };
  if (!existsSync(file)) throw new ManifestError(`${file}: the manifest file does not exist`);
  return parseManifest(yaml.load(readFileSync(file, 'utf8')), file);
}

function checkEntry(
  label: string,
  key: string,
  entry: unknown,
  toolsets: Map<string, ToolsetDefinition>,
): ToolOverride {
  const where = `${label}: tools.${key}`;
  if (!isObject(entry)) throw new ManifestError(`${where} must be a mapping`);
  for (const field of Object.keys(entry)) {
    if (!ENTRY_FIELDS.has(field)) throw new ManifestError(`${where} has unknown field "${field}"`);
  }
  for (const field of STRING_FIELDS) {
    if (entry[field] !== undefined && typeof entry[field] !== 'string')
      throw new ManifestError(`${where}.${field} must be a string`);
  }
  if (entry.exclude !== undefined && typeof entry.exclude !== 'boolean')
    throw new ManifestError(`${where}.exclude must be true or false`);
  if (entry.annotations !== undefined && !isObject(entry.annotations))
    throw new ManifestError(`${where}.annotations must be a mapping`);
  for (const [field, value] of Object.entries(isObject(entry.annotations) ? entry.annotations : {})) {
    if (field === 'title' ? typeof value !== 'string' : !HINTS.has(field))
      throw new ManifestError(`${where}.annotations has unknown field "${field}"`);
    if (HINTS.has(field) && typeof value !== 'boolean')
      throw new ManifestError(`${where}.annotations.${field} must be true or false`);
  }
  if (entry.exclude === true && (typeof entry.reason !== 'string' || !entry.reason.trim())) {
    throw new ManifestError(`${where} is excluded without a reason`);
  }
  if (typeof entry.toolset === 'string' && toolsets.size && !toolsets.has(entry.toolset)) {
    throw new ManifestError(`${where} names unknown toolset "${entry.toolset}"`);
  }
  if (typeof entry.toolset === 'string' && toolsets.get(entry.toolset)?.tools) {
    throw new ManifestError(`${where} names the curated toolset "${entry.toolset}" as its home; list it there instead`);
  }
  return entry;
}

const TOOLSET_NAME = /^[a-z][a-z0-9_]{0,31}$/;
// Words a connection's selection gives a meaning of its own (`?toolsets=all`), so no toolset may take them.
const RESERVED_TOOLSETS = new Set(['all']);

/** A toolset is a description string, or `{description, tools: [names]}` for a curated one. */
function checkToolset(label: string, name: string, value: unknown): ToolsetDefinition {
  const where = `${label}: toolsets.${name}`;
  if (!TOOLSET_NAME.test(name) || RESERVED_TOOLSETS.has(name))
    throw new ManifestError(`${where}: a toolset name is lower case letters, digits and _ (not "all")`);
  if (typeof value === 'string') return { description: value };
  if (!isObject(value) || typeof value.description !== 'string' || !Array.isArray(value.tools))
    throw new ManifestError(`${where} must be a description string, or {description, tools: [tool names]}`);
  for (const field of Object.keys(value)) {
    if (field !== 'description' && field !== 'tools') throw new ManifestError(`${where} has unknown field "${field}"`);
  }
  const tools = value.tools as unknown[];
  if (!tools.length || !tools.every((t): t is string => typeof t === 'string'))
    throw new ManifestError(`${where}.tools must list tool names`);
  const repeated = tools.find((t, i) => tools.indexOf(t) !== i);
  if (repeated) throw new ManifestError(`${where}.tools names ${String(repeated)} twice`);
  return { description: value.description, tools };
}

/** Checks a parsed manifest; every mistake throws a ManifestError naming the entry. */
export function parseManifest(raw: unknown, label = 'mcp-tools.yaml'): Manifest {
  const doc = raw ?? {};
  if (!isObject(doc)) throw new ManifestError(`${label}: the manifest must be a mapping`);
  for (const key of Object.keys(doc)) {
    if (key !== 'tools' && key !== 'toolsets')
      throw new ManifestError(`${label}: unknown top-level key "${key}" (expected tools, toolsets)`);
  }
  for (const key of ['tools', 'toolsets']) {
    if (doc[key] !== undefined && doc[key] !== null && !isObject(doc[key]))
      throw new ManifestError(`${label}: ${key} must be a mapping`);
  }
  const toolsets = new Map<string, ToolsetDefinition>();
  for (const [name, value] of Object.entries(isObject(doc.toolsets) ? doc.toolsets : {}))
    toolsets.set(name, checkToolset(label, name, value));
  const tools = new Map<string, ToolOverride>();
  for (const [key, entry] of Object.entries(isObject(doc.tools) ? doc.tools : {}))
    tools.set(key, checkEntry(label, key, entry, toolsets));
  return { label, toolsets, tools, given: true };
}

/** The key an operation answers to in the manifest: its operationId, or `METHOD /path`. */
export function manifestKey(op: OperationModel): string {
  return op.operationId ?? `${op.method.toUpperCase()} ${op.path}`;
}

export interface AppliedTool {
  op: OperationModel;
  override: ToolOverride;
  name: string;
}

export function applyManifest(
  operations: OperationModel[],
  manifest: Manifest,
  warn: (msg: string) => void,
): AppliedTool[] {
  const { label } = manifest;
  const byKey = new Map(operations.map((op) => [manifestKey(op), op]));
  for (const key of manifest.tools.keys()) {
    if (!byKey.has(key)) throw new ManifestError(`${label}: tools.${key} names an unknown operationId "${key}"`);
  }
  const owners = new Map<string, string>();
  const applied: AppliedTool[] = [];
  for (const op of operations) {
    const key = manifestKey(op);
    const override = manifest.tools.get(key) ?? {};
    if (override.exclude) continue;
    if (isBrowserOnly(op)) {
      const what = `${op.method.toUpperCase()} ${op.path} answers only with HTML pages or redirects, which a browser follows and a tool cannot`;
      if (!manifest.given) {
        warn(`warning: ${key}: ${what}; it is not a tool`);
        continue;
      }
      throw new ManifestError(`${label}: tools.${key}: ${what}; exclude it (exclude: true with a reason)`);
    }
    const name = override.name ?? op.toolName;
    if (!isValidToolName(name)) {
      throw new ManifestError(`${label}: tools.${key}: tool name "${name}" does not match ^[a-zA-Z0-9_-]{1,64}$`);
    }
    const previous = owners.get(name);
    if (previous) throw new ManifestError(`${label}: tools.${key}: tool name "${name}" is already used by ${previous}`);
    owners.set(name, key);
    if (name.length > 48)
      warn(`warning: tool name "${name}" (${key}) is longer than 48 characters; clients that prefix names may cut it`);
    applied.push({ op, override, name });
  }
  return applied;
}

export interface ToolsetEntry {
  name: string;
  description: string;
  /** The tool names in the toolset, in listing order. */
  tools: string[];
}

/**
 * Every toolset with its tools: a plain one holds the tools whose home it is, in listing order; a curated one
 * its list, whose every name must be a tool of the contract (not excluded).
 */
export function toolsetCatalogue(manifest: Manifest, tools: Array<{ name: string; toolset?: string }>): ToolsetEntry[] {
  const names = new Set(tools.map((t) => t.name));
  return [...manifest.toolsets].map(([name, definition]) => {
    for (const tool of definition.tools ?? []) {
      if (!names.has(tool))
        throw new ManifestError(`${manifest.label}: toolsets.${name}.tools names "${tool}", which is not a tool`);
    }
    const members = definition.tools ?? tools.filter((t) => t.toolset === name).map((t) => t.name);
    return { name, description: definition.description, tools: members };
  });
}
