// The JSON Schema 2020-12 validation and annotation keywords a tool schema keeps, each with a check of its
// value. Anything else (OpenAPI-only `nullable`, `discriminator`, `example`, `x-*`, Swagger leftovers such as
// `collectionFormat`) and malformed values (`minimum: "3"`, `type: file`) are dropped, so that every emitted
// schema compiles in a strict validator and strict clients accept it.
import type { Json } from './load.ts';

const KNOWN_FORMATS = new Set([
  'date',
  'time',
  'date-time',
  'duration',
  'uri',
  'uri-reference',
  'uri-template',
  'url',
  'email',
  'hostname',
  'ipv4',
  'ipv6',
  'regex',
  'uuid',
  'json-pointer',
  'relative-json-pointer',
  'byte',
  'int32',
  'int64',
  'float',
  'double',
  'password',
  'binary',
  'iso-time',
  'iso-date-time',
]);
const TYPES = new Set(['string', 'number', 'integer', 'boolean', 'object', 'array', 'null']);
const COUNTS = new Set([
  'maxLength',
  'minLength',
  'maxItems',
  'minItems',
  'maxProperties',
  'minProperties',
  'maxContains',
  'minContains',
]);

export function patternCompiles(pattern: string): boolean {
  try {
    new RegExp(pattern, 'u');
    return true;
  } catch {
    return false;
  }
}

function typeName(value: Json): string | undefined {
  if (value === 'file') return 'string'; // Swagger 2's upload type, seen in documents converted from it
  return typeof value === 'string' && TYPES.has(value) ? value : undefined;
}

function typeValue(value: Json): Json | undefined {
  const names = (Array.isArray(value) ? value : [value]).map(typeName).filter((t): t is string => t !== undefined);
  const unique = [...new Set(names)];
  if (!unique.length) return undefined;
  return unique.length === 1 ? unique[0] : unique;
}

function stringList(value: Json): string[] | undefined {
  if (!Array.isArray(value)) return undefined;
  const list = [...new Set(value.filter((v): v is string => typeof v === 'string'))];
  return list.length ? list : undefined;
}

function dependentRequired(value: Json): Json | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const out: Record<string, Json> = {};
  for (const [key, list] of Object.entries(value))
    if (Array.isArray(list)) out[key] = list.filter((v) => typeof v === 'string');
  return Object.keys(out).length ? out : undefined;
}

/** The value to keep for a non-applicator keyword, or undefined to drop it. */
export function keptKeyword(key: string, value: Json): Json | undefined {
  switch (key) {
    case 'description':
      return typeof value === 'string' ? value : undefined;
    case 'default':
    case 'const':
      return value;
    case 'enum':
      return Array.isArray(value) && value.length ? value : undefined;
    case 'uniqueItems':
      return typeof value === 'boolean' ? value : undefined;
    case 'multipleOf':
      return typeof value === 'number' && value > 0 ? value : undefined;
    case 'maximum':
    case 'minimum':
      return typeof value === 'number' ? value : undefined;
    case 'required':
      return stringList(value);
    case 'dependentRequired':
      return dependentRequired(value);
    case 'format':
      return typeof value === 'string' && KNOWN_FORMATS.has(value) ? value : undefined;
    case 'pattern':
      return typeof value === 'string' && patternCompiles(value) ? value : undefined;
    case 'type':
      return typeValue(value);
    default:
      return COUNTS.has(key) && Number.isInteger(value) && (value as number) >= 0 ? value : undefined;
  }
}

function jsonType(value: Json): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

/** Whether a value (a `default`) has one of the schema's types; documents carry defaults such as `"10"` on integers. */
export function fitsType(value: Json, type: Json | undefined): boolean {
  if (type === undefined) return true;
  const types = Array.isArray(type) ? type : [type];
  const actual = jsonType(value);
  return types.includes(actual) || (actual === 'integer' && types.includes('number'));
}
