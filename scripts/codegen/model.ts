// Turns an OpenAPI document into the operation model every emitter reads.
import { deref, isObject, type Json, type JsonObject, type LoadedSpec } from './load.ts';
import { asciiFold, operationIdentifier, toolNameFor, typeName, uniqueNamer } from './naming.ts';

export const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;
export type Method = (typeof METHODS)[number];

export interface ParamModel {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  required: boolean;
  schema: Json;
  description?: string;
  /**
   * A query array written `style: form, explode: false`: one value, the items joined by commas
   * (`?status=queued,running`) instead of the key repeated.
   */
  commaSeparated?: true;
  /** A `{name}` of the path template that no parameter declares; openapi-typescript's types do not have it. */
  implicit?: true;
}

/**
 * How the generated glue carries a media type: `json` is parsed and validated with zod, `form` is parsed as a
 * form, and everything else (`text/csv`, `text/html`, ...) travels as text.
 */
export type MediaKind = 'json' | 'form' | 'text';

export interface MediaModel {
  type: string;
  kind: MediaKind;
  schema: Json;
}

export interface BodyModel {
  required: boolean;
  /** The preferred media type (JSON first): the one the SDK and the MCP tool send. */
  contentType: string;
  schema: Json;
  /** Every declared media type, in document order; the route accepts each of them. */
  media: MediaModel[];
  description?: string;
}

export interface ResponseHeaderModel {
  name: string;
  required: boolean;
}

export interface ResponseModel {
  /** `200`, `4XX` or `default`. */
  status: string;
  description: string;
  contentType?: string;
  /** How the body of `contentType` is written; undefined when the response has no content. */
  kind?: MediaKind;
  schema?: Json;
  headers: ResponseHeaderModel[];
}

export interface OperationModel {
  operationId?: string;
  /** Unique camelCase identifier: the handler, route and client method name. */
  id: string;
  /** Unique PascalCase stem of the operation's TypeScript type names (`${typeName}Input`, ...). */
  typeName: string;
  toolName: string;
  method: Method;
  path: string;
  summary?: string;
  description?: string;
  tags: string[];
  parameters: ParamModel[];
  body?: BodyModel;
  responses: ResponseModel[];
  /** Scopes the operation requires; null when it is public. */
  scopes: string[] | null;
}

export interface SpecModel {
  /** The document, with duplicate operationIds made unique (openapi-typescript keys types by operationId). */
  doc: JsonObject;
  version: '3.0' | '3.1';
  operations: OperationModel[];
  warnings: string[];
}

/**
 * Names the emitted code already uses beside the operation ids: `raw` is the client's escape hatch, and
 * `__proto__` as an object-literal key sets the prototype instead of a property.
 */
const TAKEN_IDS = ['raw', '__proto__', 'constructor'];

const CONTENT_PREFERENCE = [
  /^application\/json$/,
  /\+json$/,
  /json/,
  /^application\/x-www-form-urlencoded$/,
  /^multipart\/form-data$/,
  /^text\//,
];

export function pickContentType(content: JsonObject): string | undefined {
  const types = Object.keys(content);
  for (const pattern of CONTENT_PREFERENCE) {
    const hit = types.find((t) => pattern.test(t.toLowerCase()));
    if (hit) return hit;
  }
  return types[0];
}

export function mediaKind(type: string): MediaKind {
  const t = type.toLowerCase();
  if (/json/.test(t)) return 'json';
  if (t === 'application/x-www-form-urlencoded' || t === 'multipart/form-data') return 'form';
  return 'text';
}

/** A query array in OpenAPI's `form` style (the query default) with `explode: false`. */
function isCommaSeparated(doc: JsonObject, location: ParamModel['in'], p: JsonObject): boolean {
  if (location !== 'query' || p.explode !== false || (p.style !== undefined && p.style !== 'form')) return false;
  const schema = p.schema === undefined ? undefined : deref(doc, p.schema);
  return isObject(schema) && (schema.type === 'array' || (Array.isArray(schema.type) && schema.type.includes('array')));
}

function readParameters(doc: JsonObject, list: Json | undefined): ParamModel[] {
  if (!Array.isArray(list)) return [];
  const out: ParamModel[] = [];
  for (const raw of list) {
    const p = deref(doc, raw);
    if (!isObject(p) || typeof p.name !== 'string') continue;
    const location = p.in;
    if (location !== 'path' && location !== 'query' && location !== 'header' && location !== 'cookie') continue;
    let schema: Json = p.schema ?? {};
    if (!p.schema && isObject(p.content)) {
      const type = pickContentType(p.content);
      const media = type ? deref(doc, p.content[type]) : undefined;
      schema = isObject(media) && media.schema ? media.schema : {};
    }
    out.push({
      name: p.name,
      in: location,
      required: location === 'path' ? true : p.required === true,
      schema,
      description: typeof p.description === 'string' ? p.description : undefined,
      ...(isCommaSeparated(doc, location, p) && { commaSeparated: true as const }),
    });
  }
  return out;
}

/** Operation parameters override path-level ones with the same name and location. */
function mergeParameters(pathLevel: ParamModel[], opLevel: ParamModel[]): ParamModel[] {
  const key = (p: ParamModel) => `${p.in}:${p.name}`;
  const own = new Set(opLevel.map(key));
  return [...pathLevel.filter((p) => !own.has(key(p))), ...opLevel];
}

/** A `{name}` in the path template that no parameter declares still needs a value: it becomes a string parameter. */
function withTemplateParams(path: string, params: ParamModel[]): ParamModel[] {
  const declared = new Set(params.filter((p) => p.in === 'path').map((p) => p.name));
  const missing = [...path.matchAll(/\{([^}]+)\}/g)]
    .map((m) => m[1])
    .filter((name, i, all) => !declared.has(name) && all.indexOf(name) === i);
  return missing.length
    ? [
        ...missing.map(
          (name): ParamModel => ({ name, in: 'path', required: true, schema: { type: 'string' }, implicit: true }),
        ),
        ...params,
      ]
    : params;
}

function readBody(doc: JsonObject, raw: Json | undefined): BodyModel | undefined {
  const body = raw === undefined ? undefined : deref(doc, raw);
  if (!isObject(body) || !isObject(body.content)) return undefined;
  const contentType = pickContentType(body.content);
  if (!contentType) return undefined;
  const content = body.content;
  const media = Object.keys(content).map((type): MediaModel => {
    const entry = deref(doc, content[type]);
    return { type, kind: mediaKind(type), schema: isObject(entry) && entry.schema !== undefined ? entry.schema : {} };
  });
  return {
    required: body.required === true,
    contentType,
    schema: media.find((m) => m.type === contentType)!.schema,
    media,
    description: typeof body.description === 'string' ? body.description : undefined,
  };
}

/** A 3xx response's `Location` is always required of the handler; other headers when the contract says so. */
function readResponseHeaders(doc: JsonObject, status: string, raw: Json | undefined): ResponseHeaderModel[] {
  if (!isObject(raw)) return [];
  return Object.entries(raw).map(([name, value]) => {
    const header = deref(doc, value);
    const redirect = /^3\d\d$/.test(status) && name.toLowerCase() === 'location';
    return { name, required: redirect || (isObject(header) && header.required === true) };
  });
}

function readResponses(doc: JsonObject, raw: Json | undefined): ResponseModel[] {
  const responses = isObject(raw) ? raw : {};
  return Object.entries(responses).map(([status, value]) => {
    const response = deref(doc, value);
    const r = isObject(response) ? response : {};
    const content = isObject(r.content) ? r.content : {};
    const contentType = pickContentType(content);
    const media = contentType ? deref(doc, content[contentType]) : undefined;
    const key = String(status).toUpperCase() === 'DEFAULT' ? 'default' : String(status).toUpperCase();
    return {
      status: key,
      description: typeof r.description === 'string' ? r.description : '',
      contentType,
      kind: contentType ? mediaKind(contentType) : undefined,
      schema: isObject(media) ? media.schema : undefined,
      headers: readResponseHeaders(doc, key, r.headers),
    };
  });
}

function readScopes(doc: JsonObject, op: JsonObject): string[] | null {
  const security = op.security ?? doc.security;
  if (!Array.isArray(security) || security.length === 0) return null;
  if (security.some((req) => isObject(req) && Object.keys(req).length === 0)) return null;
  const first = security[0];
  if (!isObject(first)) return [];
  return Object.values(first).flatMap((scopes) => (Array.isArray(scopes) ? scopes.map(String) : []));
}

/** Unique names across the document, handed out in document order so every run names alike. */
function namers() {
  return { id: uniqueNamer(TAKEN_IDS), type: uniqueNamer(), tool: uniqueNamer(), operationId: uniqueNamer() };
}

function operationNames(names: ReturnType<typeof namers>, declared: string | undefined, method: Method, path: string) {
  const operationId = declared === undefined ? undefined : names.operationId(declared);
  const named = operationId !== undefined && /[a-zA-Z0-9]/.test(asciiFold(operationId));
  const id = names.id(operationIdentifier(named ? operationId : `${method} ${path.replace(/\{([^}]*)\}/g, 'by $1')}`));
  return {
    operationId,
    id,
    typeName: names.type(typeName(id)),
    toolName: names.tool(toolNameFor(operationId, method, path)),
  };
}

export function buildModel(spec: LoadedSpec): SpecModel {
  const doc: JsonObject = { ...spec.doc };
  const paths: JsonObject = isObject(doc.paths) ? { ...doc.paths } : {};
  doc.paths = paths;
  const operations: OperationModel[] = [];
  const warnings: string[] = [];
  const names = namers();
  for (const [path, rawItem] of Object.entries(paths)) {
    const item = deref(doc, rawItem);
    if (!isObject(item)) continue;
    const pathParams = readParameters(doc, item.parameters);
    for (const method of METHODS) {
      const op = item[method];
      if (!isObject(op)) continue;
      const declared = typeof op.operationId === 'string' && op.operationId.trim() ? op.operationId : undefined;
      const named = operationNames(names, declared, method, path);
      if (named.operationId !== declared) {
        warnings.push(
          `warning: operationId "${declared}" of ${method.toUpperCase()} ${path} is used before; this operation is called "${named.operationId}"`,
        );
        paths[path] = {
          ...(deref(doc, paths[path]) as JsonObject),
          [method]: { ...op, operationId: named.operationId ?? null },
        };
      }
      operations.push({
        ...named,
        method,
        path,
        summary: typeof op.summary === 'string' ? op.summary.trim() : undefined,
        description: typeof op.description === 'string' ? op.description.trim() : undefined,
        tags: Array.isArray(op.tags) ? op.tags.map(String) : [],
        parameters: withTemplateParams(path, mergeParameters(pathParams, readParameters(doc, op.parameters))),
        body: readBody(doc, op.requestBody),
        responses: readResponses(doc, op.responses),
        scopes: readScopes(doc, op),
      });
    }
  }
  return { doc, version: spec.version, operations, warnings };
}

export function successResponse(op: OperationModel): ResponseModel | undefined {
  return op.responses.find((r) => /^2\d\d$/.test(r.status)) ?? op.responses.find((r) => r.status === '2XX');
}

/**
 * Every success response with a body, when the operation declares more than one whose bodies differ
 * (200 with a result, or 202 with an operation); empty otherwise. A tool then promises no one output
 * shape, and the SDK's result type is their union.
 */
export function distinctSuccessBodies(op: OperationModel): ResponseModel[] {
  const bodies = op.responses.filter(
    (r) => /^2\d\d$/.test(r.status) && r.contentType !== undefined && r.schema !== undefined,
  );
  const shapes = new Set(bodies.map((r) => `${r.contentType} ${JSON.stringify(r.schema)}`));
  return shapes.size > 1 ? bodies : [];
}

/**
 * An operation a browser uses, not a program: every success or redirect response it declares is an HTML page
 * or a 3xx. Such an operation cannot be an MCP tool; the manifest must exclude it.
 */
export function isBrowserOnly(op: OperationModel): boolean {
  const answers = op.responses.filter((r) => /^[23](\d\d|XX)$/.test(r.status));
  return (
    answers.length > 0 && answers.every((r) => r.status.startsWith('3') || r.contentType?.toLowerCase() === 'text/html')
  );
}
