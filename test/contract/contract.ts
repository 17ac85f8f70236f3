// The contract as data for the contract tests: operations by operationId, their parameters, request
// body and declared responses, and ajv validators for any schema in it with its $refs resolved.
import { readFileSync } from 'node:fs';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsPlugin from 'ajv-formats';
import yaml from 'js-yaml';
import { contractPath } from '../helpers/prism.ts';

export type Json = Record<string, unknown>;

export interface ContractResponse {
  /** The key under `responses`: '200', '4XX' or 'default'. */
  key: string;
  /** Media type -> JSON pointer of its schema in the document. */
  content: Map<string, string>;
}

export interface ContractOperation {
  operationId: string;
  method: string;
  path: string;
  parameters: Array<{ name: string; in: string; required: boolean; pointer: string }>;
  body?: { required: boolean; content: Map<string, string> };
  responses: ContractResponse[];
}

const documentId = 'https://contract.test/openapi.json';
const methods = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];
const addFormats = ((addFormatsPlugin as unknown as { default?: unknown }).default ?? addFormatsPlugin) as (
  a: Ajv2020,
) => void;

const escape = (token: string) => token.replace(/~/g, '~0').replace(/\//g, '~1');
const pointerOf = (...tokens: string[]) => tokens.map((t) => `/${escape(t)}`).join('');

export class Contract {
  readonly document: Json;
  readonly operations = new Map<string, ContractOperation>();
  private readonly ajv = new Ajv2020({ allErrors: true, strict: false });
  private readonly validators = new Map<string, ValidateFunction>();

  constructor(document: Json) {
    this.document = document;
    addFormats(this.ajv);
    this.ajv.addSchema(document, documentId);
    this.collectOperations();
  }

  static load(path = contractPath): Contract {
    return new Contract(yaml.load(readFileSync(path, 'utf8')) as Json);
  }

  /** The value at a JSON pointer, following `$ref`s; returns it with the pointer it finally lives at. */
  resolve(pointer: string): { value: Json; pointer: string } {
    let at = pointer;
    for (let hops = 0; hops < 32; hops++) {
      const value = this.at(at) as Json;
      const ref = value?.$ref;
      if (typeof ref !== 'string') return { value, pointer: at };
      if (!ref.startsWith('#')) throw new Error(`only local $refs are supported: ${ref} at ${at}`);
      at = decodeURIComponent(ref.slice(1));
    }
    throw new Error(`$ref cycle at ${pointer}`);
  }

  /** The ajv validator for the schema at a JSON pointer of the document. */
  validator(pointer: string): ValidateFunction {
    let validate = this.validators.get(pointer);
    if (!validate) {
      validate = this.ajv.compile({ $ref: `${documentId}#${pointer.split('/').map(encodeURIComponent).join('/')}` });
      this.validators.set(pointer, validate);
    }
    return validate;
  }

  /** A validator for a standalone schema (e.g. a tool's inputSchema). */
  compile(schema: Json): ValidateFunction {
    return this.ajv.compile(schema);
  }

  /** The declared response for a status: exact code, then its range (`4XX`), then `default`. */
  responseFor(operationId: string, status: number): ContractResponse | undefined {
    const responses = this.operation(operationId).responses;
    const range = `${String(status)[0]}XX`;
    return (
      responses.find((r) => r.key === String(status)) ??
      responses.find((r) => r.key.toUpperCase() === range) ??
      responses.find((r) => r.key === 'default')
    );
  }

  operation(operationId: string): ContractOperation {
    const op = this.operations.get(operationId);
    if (!op) throw new Error(`the contract has no operation ${operationId}`);
    return op;
  }

  private at(pointer: string): unknown {
    let value: unknown = this.document;
    for (const token of pointer.split('/').slice(1)) {
      value = (value as Json | undefined)?.[token.replace(/~1/g, '/').replace(/~0/g, '~')];
    }
    return value;
  }

  private content(pointer: string): Map<string, string> {
    const out = new Map<string, string>();
    const content = (this.at(pointer) ?? {}) as Json;
    for (const mediaType of Object.keys(content)) out.set(mediaType, `${pointer}${pointerOf(mediaType, 'schema')}`);
    return out;
  }

  private collectOperations(): void {
    const paths = (this.document.paths ?? {}) as Record<string, Json>;
    for (const [path, item] of Object.entries(paths)) {
      for (const method of methods.filter((m) => item[m])) {
        const opPointer = pointerOf('paths', path, method);
        const op = this.at(opPointer) as Json;
        if (typeof op.operationId !== 'string') throw new Error(`${method.toUpperCase()} ${path} has no operationId`);
        this.operations.set(op.operationId, {
          operationId: op.operationId,
          method: method.toUpperCase(),
          path,
          parameters: this.parameters(pointerOf('paths', path), opPointer),
          body: op.requestBody ? this.requestBody(`${opPointer}/requestBody`) : undefined,
          responses: Object.keys((op.responses ?? {}) as Json).map((key) => {
            const response = this.resolve(`${opPointer}${pointerOf('responses', key)}`);
            return { key, content: this.content(`${response.pointer}/content`) };
          }),
        });
      }
    }
  }

  // Operation-level parameters override path-level ones with the same name and location.
  private parameters(itemPointer: string, opPointer: string): ContractOperation['parameters'] {
    const byKey = new Map<string, ContractOperation['parameters'][number]>();
    for (const owner of [itemPointer, opPointer]) {
      const list = (this.at(`${owner}/parameters`) ?? []) as unknown[];
      list.forEach((_, i) => {
        const { value, pointer } = this.resolve(`${owner}/parameters/${i}`);
        const name = String(value.name);
        byKey.set(`${value.in}:${name}`, {
          name,
          in: String(value.in),
          required: value.required === true,
          pointer: `${pointer}/schema`,
        });
      });
    }
    return [...byKey.values()];
  }

  private requestBody(pointer: string): ContractOperation['body'] {
    const { value, pointer: at } = this.resolve(pointer);
    return { required: value.required === true, content: this.content(`${at}/content`) };
  }
}
