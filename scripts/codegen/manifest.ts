// Reads mcp-tools.yaml and applies it to the operation model: names, titles, descriptions, annotations,
// toolsets and exclusions. Every mistake fails codegen with a message naming the entry.
import { existsSync, readFileSync } from 'node:fs';
import { parse as parseYaml } from 'yaml';
import { isObject, type JsonObject } from './load.ts';
import type { OperationModel } from './model.ts';
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

export interface Manifest {
  toolsets: Record<string, string>;
  tools: Record<string, ToolOverride>;
}

export class ManifestError extends Error {}

const ENTRY_FIELDS = new Set(['name', 'title', 'description', 'annotations', 'toolset', 'exclude', 'reason']);
const ANNOTATION_FIELDS = new Set(['title', 'readOnlyHint', 'destructiveHint', 'idempotentHint', 'openWorldHint']);

export function loadManifest(file: string | undefined): Manifest {
  if (!file || !existsSync(file)) return { toolsets: {}, tools: {} };
  const raw: unknown = parseYaml(readFileSync(file, 'utf8')) ?? {};
  if (!isObject(raw)) throw new ManifestError(`${file}: the manifest must be a mapping`);
  for (const key of Object.keys(raw)) {
    if (key !== 'tools' && key !== 'toolsets') throw new ManifestError(`${file}: unknown top-level key "${key}" (expected tools, toolsets)`);
  }
  const toolsets = isObject(raw.toolsets) ? (raw.toolsets as Record<string, string>) : {};
  const tools: Record<string, ToolOverride> = {};
  for (const [key, entry] of Object.entries(isObject(raw.tools) ? raw.tools : {})) {
    if (!isObject(entry)) throw new ManifestError(`mcp-tools.yaml: tools.${key} must be a mapping`);
    for (const field of Object.keys(entry)) {
      if (!ENTRY_FIELDS.has(field)) throw new ManifestError(`mcp-tools.yaml: tools.${key} has unknown field "${field}"`);
    }
    for (const field of Object.keys(isObject(entry.annotations) ? entry.annotations : {})) {
      if (!ANNOTATION_FIELDS.has(field)) throw new ManifestError(`mcp-tools.yaml: tools.${key}.annotations has unknown field "${field}"`);
    }
    if (entry.exclude === true && (typeof entry.reason !== 'string' || !entry.reason.trim())) {
      throw new ManifestError(`mcp-tools.yaml: tools.${key} is excluded without a reason`);
    }
    if (entry.toolset !== undefined && typeof entry.toolset === 'string' && Object.keys(toolsets).length && !(entry.toolset in toolsets)) {
      throw new ManifestError(`mcp-tools.yaml: tools.${key} names unknown toolset "${entry.toolset}"`);
    }
    tools[key] = entry as ToolOverride;
  }
  return { toolsets, tools };
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

export function applyManifest(operations: OperationModel[], manifest: Manifest, warn: (msg: string) => void): AppliedTool[] {
  const byKey = new Map(operations.map((op) => [manifestKey(op), op]));
  for (const key of Object.keys(manifest.tools)) {
    if (!byKey.has(key)) throw new ManifestError(`mcp-tools.yaml: tools.${key} names an unknown operationId "${key}"`);
  }
  const owners = new Map<string, string>();
  const applied: AppliedTool[] = [];
  for (const op of operations) {
    const key = manifestKey(op);
    const override = manifest.tools[key] ?? {};
    if (override.exclude) continue;
    const name = override.name ?? op.toolName;
    if (!isValidToolName(name)) {
      throw new ManifestError(`mcp-tools.yaml: tools.${key}: tool name "${name}" does not match ^[a-zA-Z0-9_-]{1,64}$`);
    }
    const previous = owners.get(name);
    if (previous) throw new ManifestError(`mcp-tools.yaml: tools.${key}: tool name "${name}" is already used by ${previous}`);
    owners.set(name, key);
    if (name.length > 48) warn(`warning: tool name "${name}" (${key}) is longer than 48 characters; clients that prefix names may cut it`);
    applied.push({ op, override, name });
  }
  return applied;
}
