// Repository-owned documents with the shapes that make the optional real corpus (../shared/specs) hard, so
// the guarantees it checks hold in a clone with nothing beside it: radarr's document without any operationId,
// twilio's `/{Sid}.json` paths, comparison parameters and form bodies, discourse's `{id}.json` beside
// `{name}.json` with type lists and multipart, and petstore's YAML with unquoted response codes.
import type { JsonObject } from '../../scripts/codegen/load.ts';
import { json, ok, ref } from './synthetic-builders.ts';

const str = { type: 'string' };
const pathParam = (name: string, schema: JsonObject = str) => ({ name, in: 'path', required: true, schema });

/** Like radarr: 3.0.4, not one operationId, paths that differ only in a parameter name or a separator, self-recursion. */
export function noOperationIds(): JsonObject {
  const paths: JsonObject = {};
  for (const resource of [
    'movie',
    'movie-file',
    'movie_file',
    'moviefile',
    'queue/details',
    'system/status',
    'tag/detail',
  ]) {
    paths[`/api/v3/${resource}`] = {
      get: { responses: ok({ type: 'array', items: ref('Resource') }) },
      post: { requestBody: json(ref('Resource')), responses: ok(ref('Resource')) },
    };
    paths[`/api/v3/${resource}/{id}`] = {
      get: { parameters: [pathParam('id', { type: 'integer', format: 'int32' })], responses: ok(ref('Resource')) },
      put: { parameters: [pathParam('id')], requestBody: json(ref('Resource')), responses: ok(ref('Resource')) },
      delete: { parameters: [pathParam('id', { type: 'integer' })], responses: { '200': { description: 'ok' } } },
    };
  }
  paths['/api/v3/movie/{movieId}/file'] = { get: { parameters: [pathParam('movieId')], responses: ok(ref('Folder')) } };
  paths['/api/v3/movie/lookup'] = {
    get: {
      parameters: [{ name: 'term', in: 'query', schema: str }],
      responses: ok({ type: 'array', items: ref('Resource') }),
    },
  };
  paths['/api/v3/filesystem'] = {
    get: { responses: ok(ref('Folder')) },
    head: { responses: { '200': { description: 'ok' } } },
  };
  paths['/api'] = { get: { responses: { '200': { description: 'ok' } } } };
  paths['/feed/v3/calendar/radarr.ics'] = { get: { responses: { '200': { description: 'ok' } } } };
  const schemas: JsonObject = {
    Resource: {
      type: 'object',
      properties: {
        id: { type: 'integer', format: 'int32' },
        title: { type: 'string', nullable: true },
        tags: { type: 'array', nullable: true, items: { type: 'integer' } },
      },
      additionalProperties: false,
    },
    Folder: {
      type: 'object',
      properties: {
        name: { type: 'string', nullable: true },
        subFolders: { type: 'array', items: ref('Folder'), nullable: true },
      },
    },
  };
  return { openapi: '3.0.4', info: { title: 'no operationIds', version: '1' }, paths, components: { schemas } };
}

/** Like twilio: a date-versioned prefix, `.json` after a parameter, `StartTime<`/`StartTime>`, form bodies, an Authorization header. */
export function versionedJsonPaths(): JsonObject {
  const account = pathParam('AccountSid', {
    type: 'string',
    minLength: 34,
    maxLength: 34,
    pattern: '^AC[0-9a-fA-F]{32}$',
  });
  const form = (schema: JsonObject) => ({ content: { 'application/x-www-form-urlencoded': { schema } } });
  const call = {
    type: 'object',
    properties: {
      sid: { type: 'string', nullable: true },
      status: { type: 'string', enum: ['queued', 'ringing'], nullable: true },
      start_time: { type: 'string', format: 'date-time-rfc-2822', nullable: true },
    },
  };
  return {
    openapi: '3.0.1',
    info: { title: 'versioned json paths', version: '1' },
    paths: {
      '/2010-04-01/Accounts/{AccountSid}/Calls.json': {
        get: {
          operationId: 'ListCall',
          parameters: [
            account,
            { name: 'StartTime', in: 'query', schema: { type: 'string', format: 'date-time' } },
            { name: 'StartTime<', in: 'query', schema: { type: 'string', format: 'date-time' } },
            { name: 'StartTime>', in: 'query', schema: { type: 'string', format: 'date-time' } },
            { name: 'PageSize', in: 'query', schema: { type: 'integer', minimum: 1, maximum: 1000 } },
          ],
          responses: ok({
            type: 'object',
            properties: {
              calls: { type: 'array', items: call },
              next_page_uri: { type: 'string', format: 'uri', nullable: true },
            },
          }),
        },
        post: {
          operationId: 'CreateCall',
          parameters: [account, { name: 'Authorization', in: 'header', schema: str }],
          requestBody: {
            required: true,
            ...form({
              type: 'object',
              required: ['To', 'From'],
              properties: {
                To: str,
                From: str,
                StatusCallbackEvent: { type: 'array', items: str },
                Timeout: { type: 'integer' },
              },
            }),
          },
          responses: { '201': { description: 'created', ...json(call) } },
        },
      },
      '/2010-04-01/Accounts/{AccountSid}/Calls/{Sid}.json': {
        parameters: [account, pathParam('Sid')],
        get: { operationId: 'FetchCall', responses: ok(call) },
        post: {
          operationId: 'UpdateCall',
          requestBody: form({
            type: 'object',
            properties: {
              Status: { type: 'string', enum: ['canceled', 'completed'] },
              Url: { type: 'string', format: 'uri' },
            },
          }),
          responses: ok(call),
        },
        delete: { operationId: 'DeleteCall', responses: { '204': { description: 'deleted' } } },
      },
    },
  };
}

/** Like discourse: `{id}.json` beside `{name}.json`, everything inline, 3.1 type lists, multipart uploads. */
export function inlineThreeOne(): JsonObject {
  const group = {
    type: 'object',
    properties: {
      id: { type: 'integer' },
      name: { type: 'string' },
      title: { type: ['string', 'null'] },
      flair: { type: ['object', 'null'], properties: { url: { type: 'string' } } },
      members: { type: ['array', 'null'], items: { type: 'string' } },
    },
  };
  return {
    openapi: '3.1.0',
    info: { title: 'inline 3.1', version: '1' },
    paths: {
      '/groups/{id}.json': {
        put: {
          operationId: 'updateGroup',
          parameters: [pathParam('id', { type: 'integer' })],
          requestBody: json({ type: 'object', properties: { group } }),
          responses: ok({ type: 'object', properties: { success: { type: 'string' } } }),
        },
      },
      '/groups/{name}.json': {
        get: {
          operationId: 'getGroup',
          parameters: [pathParam('name')],
          responses: ok({ type: 'object', required: ['group'], properties: { group } }),
        },
      },
      '/uploads.json': {
        post: {
          operationId: 'createUpload',
          requestBody: {
            content: {
              'multipart/form-data': {
                schema: {
                  type: 'object',
                  required: ['type'],
                  properties: {
                    type: { type: 'string', enum: ['avatar', 'composer'] },
                    file: { type: 'string', format: 'binary' },
                    synchronous: { type: ['boolean', 'null'] },
                  },
                },
              },
            },
          },
          responses: ok({ type: 'object', properties: { id: { type: 'integer' }, url: { type: ['string', 'null'] } } }),
        },
      },
    },
  };
}

/** Like OAI's petstore, as YAML text: unquoted response codes (integer keys to a YAML reader), a schema without `type`. */
export const petstoreYaml = `openapi: "3.0.0"
info: { title: petstore, version: "1" }
paths:
  /pets:
    get:
      operationId: listPets
      parameters:
        - { name: limit, in: query, required: false, schema: { type: integer, maximum: 100, format: int32 } }
      responses:
        200:
          description: A paged array of pets
          content: { application/json: { schema: { $ref: "#/components/schemas/Pets" } } }
        default:
          description: unexpected error
          content: { application/json: { schema: { $ref: "#/components/schemas/Error" } } }
  /pets/{petId}:
    get:
      operationId: showPetById
      parameters: [{ name: petId, in: path, required: true, schema: { type: string } }]
      responses:
        200: { description: Expected response, content: { application/json: { schema: { $ref: "#/components/schemas/Pet" } } } }
components:
  schemas:
    Pet: { type: object, required: [id, name], properties: { id: { type: integer, format: int64 }, name: { type: string }, tag: { type: string } } }
    Pets: { type: array, maxItems: 100, items: { $ref: "#/components/schemas/Pet" } }
    Error: { required: [code, message], properties: { code: { type: integer, format: int32 }, message: { type: string } } }
`;
