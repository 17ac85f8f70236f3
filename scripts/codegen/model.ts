// Turns an OpenAPI document into the operation model every emitter reads.
import { deref, isObject, type Json, type JsonObject, type LoadedSpec } from './load.ts';
import { operationIdentifier, toolNameFor, uniqueNamer } from './naming.ts';

export const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;
export type Method = (typeof METHODS)[number];

export interface ParamModel {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  required: boolean;
  schema: Json;
  description?: string;
}

export interface BodyModel {
  required: boolean;
  contentType: string;
  schema: Json;
  description?: string;
}

export interface ResponseModel {
  /** `200`, `4XX` or `default`. */
  status: string;
  description: string;
  contentType?: string;
  schema?: Json;
}

export interface OperationModel {
  operationId?: string;
  /** Unique camelCase identifier used for TypeScript names. */
  id: string;
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
  doc: JsonObject;
  version: '3.0' | '3.1';
  operations: OperationModel[];
}

const CONTENT_PREFERENCE = [/^application\/json$/, /\+json$/, /json/, /^application\/x-www-form-urlencoded$/, /^multipart\/form-data$/, /^text\//];

export function pickContentType(content: JsonObject): string | undefined {
  const types = Object.keys(content);
  for (const pattern of CONTENT_PREFERENCE) {
    const hit = types.find((t) => pattern.test(t.toLowerCase()));
    if (hit) return hit;
  }
  return types[0];
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

function readBody(doc: JsonObject, raw: Json | undefined): BodyModel | undefined {
  const body = raw === undefined ? undefined : deref(doc, raw);
  if (!isObject(body) || !isObject(body.content)) return undefined;
  const contentType = pickContentType(body.content);
  if (!contentType) return undefined;
  const media = deref(doc, body.content[contentType]);
  return {
    required: body.required === true,
    contentType,
    schema: isObject(media) && media.schema !== undefined ? media.schema : {},
    description: typeof body.description === 'string' ? body.description : undefined,
  };
}

function readResponses(doc: JsonObject, raw: Json | undefined): ResponseModel[] {
  const responses = isObject(raw) ? raw : {};
  return Object.entries(responses).map(([status, value]) => {
    const response = deref(doc, value);
    const r = isObject(response) ? response : {};
    const content = isObject(r.content) ? r.content : {};
    const contentType = pickContentType(content);
    const media = contentType ? deref(doc, content[contentType]) : undefined;
    return {
      status: String(status).toUpperCase() === 'DEFAULT' ? 'default' : String(status).toUpperCase(),
      description: typeof r.description === 'string' ? r.description : '',
      contentType,
      schema: isObject(media) ? media.schema : undefined,
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

export function buildModel(spec: LoadedSpec): SpecModel {
  const { doc } = spec;
  const operations: OperationModel[] = [];
  const nextId = uniqueNamer();
  const nextTool = uniqueNamer();
  const paths = isObject(doc.paths) ? doc.paths : {};
  for (const [path, rawItem] of Object.entries(paths)) {
    const item = deref(doc, rawItem);
    if (!isObject(item)) continue;
    const pathParams = readParameters(doc, item.parameters);
    for (const method of METHODS) {
      const op = item[method];
      if (!isObject(op)) continue;
      const operationId = typeof op.operationId === 'string' && op.operationId.trim() ? op.operationId : undefined;
      operations.push({
        operationId,
        id: nextId(operationIdentifier(operationId ?? `${method} ${path.replace(/\{([^}]*)\}/g, 'by $1')}`)),
        toolName: nextTool(toolNameFor(operationId, method, path)),
        method,
        path,
        summary: typeof op.summary === 'string' ? op.summary.trim() : undefined,
        description: typeof op.description === 'string' ? op.description.trim() : undefined,
        tags: Array.isArray(op.tags) ? op.tags.map(String) : [],
        parameters: mergeParameters(pathParams, readParameters(doc, op.parameters)),
        body: readBody(doc, op.requestBody),
        responses: readResponses(doc, op.responses),
        scopes: readScopes(doc, op),
      });
    }
  }
  return { doc, version: spec.version, operations };
}

export function successResponse(op: OperationModel): ResponseModel | undefined {
  return op.responses.find((r) => /^2\d\d$/.test(r.status)) ?? op.responses.find((r) => r.status === '2XX');
}
