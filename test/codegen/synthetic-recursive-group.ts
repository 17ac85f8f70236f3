// A synthetic document shaped like Stripe's: one large mutually recursive group of schemas, each with long
// descriptions and several references to others through properties, nullable anyOf "expandable" fields,
// arrays and allOf, so that inlining every reference to a fixed depth multiplies without bound
// (fan-out 6 at depth 6 is tens of thousands of copies per tool).
import type { JsonObject } from '../../scripts/codegen/load.ts';
import { json, ok, ref } from './synthetic-builders.ts';

const prose = (what: string) =>
  `${what}. ${'This field is described at length, as real API references describe theirs, so that every copy of a schema costs something. '.repeat(2)}`;

export const groupName = (i: number, size: number) => `Object${((i % size) + size) % size}`;

function member(i: number, size: number): JsonObject {
  const other = (step: number) => ref(groupName(i + step, size));
  return {
    type: 'object',
    title: groupName(i, size),
    description: prose(`Object number ${i} of the recursive group`),
    required: ['id', 'object', 'created'],
    properties: {
      id: { type: 'string', maxLength: 5000, description: prose('Unique identifier for the object') },
      object: { type: 'string', enum: [`object_${i}`], description: prose('String representing the object type') },
      created: {
        type: 'integer',
        description: prose('Time at which the object was created, in seconds since the Unix epoch'),
      },
      status: {
        type: 'string',
        enum: ['active', 'inactive', 'pending', 'failed', 'archived'],
        description: prose('The status'),
      },
      metadata: {
        type: 'object',
        nullable: true,
        additionalProperties: { type: 'string', maxLength: 500 },
        description: prose('Set of key-value pairs'),
      },
      parent: {
        anyOf: [{ type: 'string', maxLength: 5000 }, other(1)],
        nullable: true,
        description: prose('ID of the parent, or the expanded parent'),
        'x-expansionResources': { oneOf: [other(1)] },
      },
      owner: { allOf: [other(29)], nullable: true, description: prose('The owner') },
      related: { type: 'array', items: { anyOf: [other(7), other(13)] }, description: prose('Related objects') },
      latest: { nullable: true, oneOf: [other(41), other(53)], description: prose('The latest related object') },
      children: {
        type: 'object',
        title: 'ChildList',
        required: ['data', 'has_more', 'object', 'url'],
        properties: {
          data: { type: 'array', items: other(3), description: prose('Details about each object') },
          has_more: {
            type: 'boolean',
            description: prose('True if this list has another page of items after this one'),
          },
          object: { type: 'string', enum: ['list'], description: prose('Always "list"') },
          url: { type: 'string', maxLength: 5000, description: prose('The URL where this list can be accessed') },
        },
        description: prose('The children, one page of them'),
      },
    },
  };
}

/** `size` mutually recursive schemas (72 by default, as in Stripe's largest group) and three operations on each. */
export function recursiveGroup(size = 72): JsonObject {
  const schemas: JsonObject = {};
  const paths: JsonObject = {};
  for (let i = 0; i < size; i++) {
    const name = groupName(i, size);
    schemas[name] = member(i, size);
    const id = { name: 'id', in: 'path', required: true, schema: { type: 'string', maxLength: 5000 } };
    const expand = {
      name: 'expand',
      in: 'query',
      style: 'deepObject',
      explode: true,
      schema: { type: 'array', items: { type: 'string', maxLength: 5000 } },
    };
    const body: JsonObject = {
      type: 'object',
      properties: {
        description: { type: 'string', maxLength: 5000, description: prose('An arbitrary string') },
        parent: {
          anyOf: [{ type: 'string', maxLength: 5000 }, ref(groupName(i + 1, size))],
          description: prose('The parent'),
        },
        metadata: {
          anyOf: [
            { type: 'object', additionalProperties: { type: 'string' } },
            { type: 'string', enum: [''] },
          ],
          description: prose('Set of key-value pairs'),
        },
      },
    };
    paths[`/v1/objects-${i}`] = {
      get: {
        operationId: `list_object_${i}`,
        parameters: [expand],
        responses: ok({
          type: 'object',
          required: ['data'],
          properties: { data: { type: 'array', items: ref(name) }, has_more: { type: 'boolean' } },
        }),
      },
      post: {
        operationId: `create_object_${i}`,
        requestBody: { required: true, ...json(body) },
        responses: ok(ref(name)),
      },
    };
    paths[`/v1/objects-${i}/{id}`] = {
      get: { operationId: `get_object_${i}`, parameters: [id, expand], responses: ok(ref(name)) },
    };
  }
  return { openapi: '3.0.3', info: { title: 'recursive group', version: '1' }, paths, components: { schemas } };
}
