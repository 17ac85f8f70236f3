// Bundles a multi-file document into one: a reference into another file is replaced by the value it points
// at, with that file's own references followed relative to it. A reference back into the entry file becomes
// local. A cycle across files (a recursive schema kept in its own file) cannot be inlined, so the schema on
// the cycle moves to `components/schemas` under a fresh name and every reference to it becomes local.
import { existsSync, readFileSync } from 'node:fs';
import { basename, dirname, extname, resolve } from 'node:path';
import { isObject, parseDocument, pointerGet, type Json, type JsonObject } from './load.ts';
import { uniqueNamer } from './naming.ts';

interface Target {
  file: string;
  pointer: string;
  key: string;
}

function targetOf(ref: string, file: string): Target {
  const hash = ref.indexOf('#');
  const path = hash < 0 ? ref : ref.slice(0, hash);
  const pointer = hash < 0 ? '' : ref.slice(hash + 1);
  let decoded = path;
  try {
    decoded = decodeURI(path);
  } catch {
    // not percent-encoded after all
  }
  const target = path ? resolve(dirname(file), decoded) : file;
  return { file: target, pointer, key: `${target}#${pointer}` };
}

function hoistName(target: Target): string {
  const last = target.pointer.split('/').filter(Boolean).pop() ?? basename(target.file, extname(target.file));
  return (
    last
      .replace(/~1/g, '_')
      .replace(/~0/g, '_')
      .replace(/[^A-Za-z0-9_.-]+/g, '_') || 'External'
  );
}

const localRef = (name: string): JsonObject => ({
  $ref: `#/components/schemas/${name.replace(/~/g, '~0').replace(/\//g, '~1')}`,
});

class Bundler {
  private readonly files = new Map<string, Json | null>();
  /** Inlined values by target, so a value referenced many times is bundled once. */
  private readonly done = new Map<string, Json>();
  private readonly open = new Set<string>();
  private readonly hoisted = new Map<string, string>();
  private readonly nextName: (name: string) => string;
  readonly added: JsonObject = {};

  constructor(
    private readonly root: string,
    doc: JsonObject,
  ) {
    this.files.set(root, doc);
    const schemas = isObject(doc.components) && isObject(doc.components.schemas) ? doc.components.schemas : {};
    this.nextName = uniqueNamer(Object.keys(schemas));
  }

  private read(file: string): Json | null {
    if (!this.files.has(file)) {
      let parsed: Json | null = null;
      try {
        if (existsSync(file)) parsed = parseDocument(readFileSync(file, 'utf8'));
      } catch {
        // Not a document (say, x-topics pointing at a markdown page): the reference is left as written.
      }
      this.files.set(file, parsed);
    }
    return this.files.get(file) ?? null;
  }

  private target(content: Json | null, pointer: string): Json | undefined {
    try {
      return content === null ? undefined : pointerGet(content, pointer);
    } catch {
      return undefined;
    }
  }

  private follow(node: JsonObject, target: Target): Json {
    const name = this.hoisted.get(target.key);
    if (name) return localRef(name);
    if (this.open.has(target.key)) {
      const fresh = this.nextName(hoistName(target));
      this.hoisted.set(target.key, fresh);
      return localRef(fresh);
    }
    if (this.done.has(target.key)) return this.done.get(target.key)!;
    const value = this.target(this.read(target.file), target.pointer);
    if (value === undefined) return node;
    this.open.add(target.key);
    const inlined = this.visit(value, target.file);
    this.open.delete(target.key);
    const hoist = this.hoisted.get(target.key);
    if (!hoist) {
      this.done.set(target.key, inlined);
      return inlined;
    }
    this.added[hoist] = inlined;
    return localRef(hoist);
  }

  visit(node: Json, file: string): Json {
    if (Array.isArray(node)) return node.map((item) => this.visit(item, file));
    if (!isObject(node)) return node;
    const ref = node.$ref;
    if (typeof ref === 'string' && !(file === this.root && ref.startsWith('#'))) {
      const target = targetOf(ref, file);
      if (target.file === this.root) return { ...node, $ref: `#${target.pointer}` };
      const siblings = Object.entries(node).filter(([key]) => key !== '$ref');
      const value = this.follow(node, target);
      if (!siblings.length || !isObject(value) || value === node) return value;
      return { ...value, ...(this.visit(Object.fromEntries(siblings), file) as JsonObject) };
    }
    const out: JsonObject = {};
    for (const [key, child] of Object.entries(node)) out[key] = this.visit(child, file);
    return out;
  }
}

export function bundleExternalRefs(doc: JsonObject, entry: string): JsonObject {
  const root = resolve(entry);
  const bundler = new Bundler(root, doc);
  const bundled = bundler.visit(doc, root) as JsonObject;
  if (!Object.keys(bundler.added).length) return bundled;
  const components = isObject(bundled.components) ? bundled.components : {};
  const existing = isObject(components.schemas) ? components.schemas : {};
  return { ...bundled, components: { ...components, schemas: { ...existing, ...bundler.added } } };
}
