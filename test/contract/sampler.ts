// A small generic sampler: one valid value for a JSON Schema of the contract, preferring what the
// contract says (examples, const, default, enum, format) over made-up data. Optional object members
// are sampled only when they have a default, so a sample means what the server assumes anyway.
// `fixtures` replaces any member or argument by name (e.g. `key_id`) with a value seeded elsewhere.
import type { OperationBinding } from '../../src/generated/sdk-runtime.ts';
import type { Contract, Json } from './contract.ts';

export type Fixtures = Record<string, unknown>;

const formats: Record<string, () => unknown> = {
  email: () => 'sample@example.com',
  'date-time': () => new Date(0).toISOString(),
  date: () => '1970-01-01',
  time: () => '00:00:00Z',
  uri: () => 'https://example.com/',
  url: () => 'https://example.com/',
  uuid: () => '00000000-0000-4000-8000-000000000000',
  hostname: () => 'example.com',
  ipv4: () => '127.0.0.1',
};

export class Sampler {
  constructor(
    private readonly contract: Contract,
    private readonly fixtures: Fixtures = {},
  ) {}

  /** Arguments for an SDK function (flat, as its binding names them) from the contract operation. */
  args(binding: OperationBinding): Record<string, unknown> {
    const op = this.contract.operation(binding.operationId);
    const args: Record<string, unknown> = {};
    for (const arg of binding.args) {
      if (arg.name in this.fixtures) {
        args[arg.name] = this.fixtures[arg.name];
        continue;
      }
      const source = this.source(binding, arg.in, arg.key);
      if (source && (source.required || this.hasDefault(source.pointer)))
        args[arg.name] = this.value(source.pointer, arg.name);
    }
    return args;
  }

  /** A value for the schema at a JSON pointer of the contract. */
  value(pointer: string, where: string, depth = 0): unknown {
    if (depth > 12) throw new Error(`sampling ${where} recursed too deep; add examples to the contract`);
    const { value: schema, pointer: at } = this.contract.resolve(pointer);
    if (Array.isArray(schema.examples) && schema.examples.length) return schema.examples[0];
    if ('const' in schema) return schema.const;
    if ('default' in schema) return schema.default;
    if (Array.isArray(schema.enum)) return schema.enum[0];
    if (Array.isArray(schema.allOf)) return this.merged(at, schema.allOf.length, where, depth);
    for (const key of ['oneOf', 'anyOf'] as const) {
      const branches = schema[key];
      if (Array.isArray(branches))
        return this.value(`${at}/${key}/${this.nonNullBranch(at, key, branches)}`, where, depth + 1);
    }
    return this.byType(schema, at, where, depth);
  }

  private byType(schema: Json, at: string, where: string, depth: number): unknown {
    const types = Array.isArray(schema.type) ? schema.type : [schema.type ?? (schema.properties ? 'object' : 'string')];
    const type = types.find((t) => t !== 'null') ?? 'null';
    switch (type) {
      case 'null':
        return null;
      case 'boolean':
        return true;
      case 'integer':
      case 'number':
        return typeof schema.minimum === 'number'
          ? schema.minimum
          : typeof schema.maximum === 'number'
            ? Math.min(1, schema.maximum)
            : 1;
      case 'array': {
        const min = typeof schema.minItems === 'number' ? schema.minItems : 0;
        return Array.from({ length: min }, (_, i) => this.value(`${at}/items`, `${where}[${i}]`, depth + 1));
      }
      case 'object':
        return this.object(schema, at, where, depth);
      default:
        return this.string(schema, where);
    }
  }

  private object(schema: Json, at: string, where: string, depth: number): Json {
    const required = new Set(Array.isArray(schema.required) ? (schema.required as string[]) : []);
    const out: Json = {};
    for (const name of Object.keys(schema.properties ?? {})) {
      const pointer = `${at}/properties/${name.replace(/~/g, '~0').replace(/\//g, '~1')}`;
      if (name in this.fixtures) out[name] = this.fixtures[name];
      else if (required.has(name) || this.hasDefault(pointer))
        out[name] = this.value(pointer, `${where}.${name}`, depth + 1);
    }
    return out;
  }

  private string(schema: Json, where: string): string {
    if (typeof schema.format === 'string' && formats[schema.format]) return String(formats[schema.format]());
    if (typeof schema.pattern === 'string')
      throw new Error(
        `cannot sample ${where}: pattern ${schema.pattern} without examples; add examples to the contract`,
      );
    const min = typeof schema.minLength === 'number' ? schema.minLength : 0;
    return 'sample'.padEnd(min, 'x');
  }

  private merged(at: string, count: number, where: string, depth: number): unknown {
    const parts = Array.from({ length: count }, (_, i) => this.value(`${at}/allOf/${i}`, where, depth + 1));
    if (!parts.every((p) => typeof p === 'object' && p !== null && !Array.isArray(p))) return parts[0];
    return Object.assign({}, ...parts);
  }

  private nonNullBranch(at: string, key: string, branches: unknown[]): number {
    const index = branches.findIndex((_, i) => this.contract.resolve(`${at}/${key}/${i}`).value.type !== 'null');
    return index < 0 ? 0 : index;
  }

  private hasDefault(pointer: string): boolean {
    return 'default' in (this.contract.resolve(pointer).value ?? {});
  }

  private source(
    binding: OperationBinding,
    location: string,
    key: string,
  ): { pointer: string; required: boolean } | undefined {
    const op = this.contract.operation(binding.operationId);
    if (location !== 'body') {
      const param = op.parameters.find((p) => p.in === location && p.name === key);
      return param && { pointer: param.pointer, required: param.required };
    }
    const mediaType = binding.contentType ?? 'application/json';
    const pointer = op.body?.content.get(mediaType);
    if (!pointer || !op.body) return undefined;
    if (binding.body === 'whole') return { pointer, required: op.body.required };
    const schema = this.contract.resolve(pointer);
    const required = Array.isArray(schema.value.required) && (schema.value.required as string[]).includes(key);
    return { pointer: `${schema.pointer}/properties/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`, required };
  }
}
