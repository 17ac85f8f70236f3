// Small builders shared by the synthetic OpenAPI documents.
import type { JsonObject } from '../../scripts/codegen/load.ts';

export const json = (schema: JsonObject) => ({ content: { 'application/json': { schema } } });
export const ok = (schema: JsonObject) => ({ '200': { description: 'ok', ...json(schema) } });
export const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

export function doc31(paths: JsonObject, schemas: JsonObject = {}, extra: JsonObject = {}): JsonObject {
  return { openapi: '3.1.0', info: { title: 'synthetic', version: '1' }, paths, components: { schemas }, ...extra };
}
