// The shape of one generated MCP tool descriptor (src/generated/mcp-tools.ts emits values of this shape).

export type JsonSchema = Record<string, unknown>;

export type ArgLocation = 'path' | 'query' | 'header' | 'body';

export interface ToolArg {
  /** Property name in the tool's inputSchema. */
  name: string;
  in: ArgLocation;
  /** Name at the location: path/query parameter, header name, or body property. Empty for a whole body. */
  key: string;
}

export interface ToolBinding {
  operationId: string;
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'HEAD' | 'OPTIONS' | 'TRACE';
  /** OpenAPI path template, e.g. `/api/v1/api-keys/{key_id}`. */
  path: string;
  /** `merged`: body object fields are top-level args; `whole`: one arg (in: 'body', key: '') is the entire body. */
  body: 'none' | 'merged' | 'whole';
  contentType?: string;
  args: ToolArg[];
}

export interface ToolAnnotations {
  title?: string;
  readOnlyHint?: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
  openWorldHint?: boolean;
}

export interface ToolDescriptor {
  name: string;
  title: string;
  description: string;
  inputSchema: JsonSchema & { type: 'object' };
  outputSchema?: JsonSchema & { type: 'object' };
  annotations: ToolAnnotations;
  toolset?: string;
  binding: ToolBinding;
}
