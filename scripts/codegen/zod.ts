// Emits zod source code from JSON Schema (OpenAPI 3.0 and 3.1 dialects). Named component schemas
// become exported constants in dependency order; references into a cycle go through z.lazy.
import { patternCompiles } from './schema-keywords.ts';
import { decodePointerSegment, isObject, pointerGet, type Json, type JsonObject } from './load.ts';
import { propertyKey, typeName, uniqueNamer } from './naming.ts';

const COMPONENT_REF = /^#\/components\/schemas\/([^/]+)$/;

function lit(value: Json): string {
  return JSON.stringify(value);
}

export class ZodEmitter {
  private readonly idents = new Map<string, string>();
  private readonly emitted = new Set<string>();
  private readonly onStack = new Set<string>();
  private readonly inlineStack: string[] = [];
  private readonly nextIdent = uniqueNamer();
  readonly declarations: string[] = [];

  constructor(private readonly doc: JsonObject) {}

  private ident(name: string): string {
    let id = this.idents.get(name);
    if (!id) {
      id = this.nextIdent(`${typeName(name)}Schema`);
      this.idents.set(name, id);
    }
    return id;
  }

  private refExpr(ref: string, indent: string): string {
    const match = COMPONENT_REF.exec(ref);
    if (match) {
      const name = decodePointerSegment(match[1]);
      const id = this.ident(name);
      if (this.emitted.has(id)) return id;
      if (this.onStack.has(id)) return `z.lazy(() => ${id})`;
      this.emitComponent(name, id);
      return id;
    }
    if (!ref.startsWith('#') || this.inlineStack.includes(ref)) return 'z.unknown()';
    let target: Json;
    try {
      target = pointerGet(this.doc, ref.slice(1));
    } catch {
      return 'z.unknown()';
    }
    this.inlineStack.push(ref);
    const out = this.expr(target, indent);
    this.inlineStack.pop();
    return out;
  }

  private emitComponent(name: string, id: string): void {
    const schemas =
      isObject(this.doc.components) && isObject(this.doc.components.schemas) ? this.doc.components.schemas : {};
    this.onStack.add(id);
    const body = name in schemas ? this.expr(schemas[name], '') : 'z.unknown()';
    this.onStack.delete(id);
    this.emitted.add(id);
    this.declarations.push(`export const ${id}: z.ZodType = ${body};`);
  }

  /** A zod expression for the schema; `indent` is the indentation of the line it starts on. */
  expr(schema: Json | undefined, indent = ''): string {
    if (schema === undefined || schema === true) return 'z.unknown()';
    if (schema === false) return 'z.never()';
    if (!isObject(schema)) return 'z.unknown()';
    if (typeof schema.$ref === 'string') return this.refExpr(schema.$ref, indent);
    const base = this.base(schema, indent);
    return schema.nullable === true && !base.endsWith('.nullable()') ? `${base}.nullable()` : base;
  }

  private base(s: JsonObject, indent: string): string {
    if ('const' in s) return isObject(s.const) || Array.isArray(s.const) ? 'z.unknown()' : `z.literal(${lit(s.const)})`;
    if (Array.isArray(s.enum)) return this.enumExpr(s.enum);
    // Properties written beside allOf/oneOf/anyOf (`{ allOf: [Base], properties: { extra } }`) constrain too.
    const combinator = ['allOf', 'oneOf', 'anyOf'].find((k) => Array.isArray(s[k]));
    if (combinator) {
      const { [combinator]: members, nullable: _, ...own } = s;
      const parts = isObject(own.properties) && Object.keys(own.properties).length ? [own] : [];
      if (combinator === 'allOf') return this.allOf([...(members as Json[]), ...parts], indent);
      const union = this.union((members as Json[]).map((m) => this.expr(m, indent)));
      if (!parts.length) return union;
      const shape = this.expr(parts[0], indent);
      return union === 'z.unknown()' ? shape : `z.intersection(${union}, ${shape})`;
    }
    if (Array.isArray(s.type)) {
      const types = s.type.filter((t): t is string => typeof t === 'string');
      const nonNull = types.filter((t) => t !== 'null');
      const members = nonNull.map((t) => this.typed({ ...s, type: t }, t, indent));
      const inner = members.length ? this.union(members) : 'z.null()';
      return types.includes('null') && members.length ? `${inner}.nullable()` : inner;
    }
    const type =
      typeof s.type === 'string'
        ? s.type
        : isObject(s.properties) || isObject(s.additionalProperties)
          ? 'object'
          : s.items
            ? 'array'
            : undefined;
    return type ? this.typed(s, type, indent) : 'z.unknown()';
  }

  private union(members: string[]): string {
    const unique = [...new Set(members)];
    if (unique.includes('z.unknown()')) return 'z.unknown()';
    return unique.length === 1 ? unique[0] : `z.union([${unique.join(', ')}])`;
  }

  private enumExpr(values: Json[]): string {
    const nonNull = values.filter((v) => v !== null);
    const nullable = nonNull.length !== values.length ? '.nullable()' : '';
    if (!nonNull.length) return 'z.null()';
    if (nonNull.every((v) => typeof v === 'string')) return `z.enum(${lit([...new Set(nonNull)])})${nullable}`;
    const literals = nonNull.filter((v) => !isObject(v) && !Array.isArray(v)).map((v) => `z.literal(${lit(v)})`);
    if (literals.length !== nonNull.length) return 'z.unknown()';
    return `${this.union(literals)}${nullable}`;
  }

  private allOf(parts: Json[], indent: string): string {
    const members = parts.map((p) => this.expr(p, indent)).filter((m) => m !== 'z.unknown()');
    if (!members.length) return 'z.unknown()';
    return members.reduce((acc, m) => `z.intersection(${acc}, ${m})`);
  }

  private typed(s: JsonObject, type: string, indent: string): string {
    switch (type) {
      case 'string':
        return this.stringExpr(s);
      case 'integer':
      case 'number':
        return this.numberExpr(s, type === 'integer');
      case 'boolean':
        return 'z.boolean()';
      case 'null':
        return 'z.null()';
      case 'array':
        return this.arrayExpr(s, indent);
      case 'object':
        return this.objectExpr(s, indent);
      default:
        return 'z.unknown()';
    }
  }

  /** Arrays, and tuples (`prefixItems`, or Draft 4 `items: [...]`) whose listed items may be absent, as in JSON Schema. */
  private arrayExpr(s: JsonObject, indent: string): string {
    const prefix = Array.isArray(s.prefixItems) ? s.prefixItems : Array.isArray(s.items) ? s.items : undefined;
    const min = typeof s.minItems === 'number' ? s.minItems : undefined;
    const max = typeof s.maxItems === 'number' ? s.maxItems : undefined;
    if (!prefix) {
      let out = `z.array(${this.expr(s.items, indent)})`;
      if (min !== undefined) out += `.min(${min})`;
      if (max !== undefined) out += `.max(${max})`;
      return out;
    }
    const rest = Array.isArray(s.items) ? s.additionalItems : s.items;
    const members = prefix.map((item) => `${this.expr(item, indent)}.optional()`);
    const out = `z.tuple([${members.join(', ')}]${rest === false ? '' : `, ${this.expr(rest, indent)}`})`;
    const checks = [
      min !== undefined ? `z.minLength(${min})` : '',
      max !== undefined ? `z.maxLength(${max})` : '',
    ].filter(Boolean);
    return checks.length ? `${out}.check(${checks.join(', ')})` : out;
  }

  private stringExpr(s: JsonObject): string {
    let out = 'z.string()';
    if (s.format === 'email') out = 'z.email()';
    else if (s.format === 'date-time') out = 'z.iso.datetime({ offset: true })';
    if (typeof s.minLength === 'number') out += `.min(${s.minLength})`;
    if (typeof s.maxLength === 'number') out += `.max(${s.maxLength})`;
    if (typeof s.pattern === 'string' && patternCompiles(s.pattern))
      out += `.regex(new RegExp(${lit(s.pattern)}, 'u'))`;
    return out;
  }

  private numberExpr(s: JsonObject, integer: boolean): string {
    let out = integer ? 'z.number().int()' : 'z.number()';
    // 3.0 writes `exclusiveMinimum: true` beside `minimum`; 3.1 writes the bound itself, maybe beside a `minimum`.
    const bound = (key: string, exclusive: Json, method: string, strictMethod: string) => {
      const value = s[key];
      if (typeof exclusive === 'number') out += `.${strictMethod}(${exclusive})`;
      if (typeof value === 'number') out += `.${exclusive === true ? strictMethod : method}(${value})`;
    };
    bound('minimum', s.exclusiveMinimum ?? false, 'gte', 'gt');
    bound('maximum', s.exclusiveMaximum ?? false, 'lte', 'lt');
    if (typeof s.multipleOf === 'number' && s.multipleOf > 0) out += `.multipleOf(${s.multipleOf})`;
    return out;
  }

  private objectExpr(s: JsonObject, indent: string): string {
    const props = isObject(s.properties) ? s.properties : {};
    const required = new Set(Array.isArray(s.required) ? s.required.map(String) : []);
    const inner = `${indent}  `;
    const lines = Object.entries(props).map(([key, sub]) => {
      const value = this.expr(sub, inner);
      return `${inner}${propertyKey(key)}: ${required.has(key) ? value : `${value}.optional()`},`;
    });
    const shape = lines.length ? `{\n${lines.join('\n')}\n${indent}}` : '{}';
    // Keys matched by patternProperties are not "additional": with those, stay loose rather than reject them.
    const extra =
      isObject(s.patternProperties) && Object.keys(s.patternProperties).length ? undefined : s.additionalProperties;
    if (extra === false) return `z.strictObject(${shape})`;
    if (isObject(extra) && Object.keys(extra).length) {
      const value = this.expr(extra, indent);
      return lines.length ? `z.looseObject(${shape}).catchall(${value})` : `z.record(z.string(), ${value})`;
    }
    return `z.looseObject(${shape})`;
  }
}
