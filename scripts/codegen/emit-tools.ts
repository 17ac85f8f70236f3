// Emits src/generated/mcp-tools.ts (and, when asked, mcp-tools.json): the MCP tool descriptors with their bindings.
import type { ToolsetEntry } from './manifest.ts';
import type { Descriptor } from './tools.ts';

const INTERFACES = `export type JsonSchema = Record<string, unknown>;

export interface ToolArg {
  name: string;
  in: 'path' | 'query' | 'header' | 'body';
  key: string;
  /** A query array sent as one comma-joined value (\`style: form, explode: false\`), not as the key repeated. */
  explode?: false;
}

export interface ToolBinding {
  operationId: string;
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'HEAD' | 'OPTIONS' | 'TRACE';
  path: string;
  body: 'none' | 'merged' | 'whole';
  contentType?: string;
  args: ToolArg[];
}

export interface ToolDescriptor {
  name: string;
  title: string;
  description: string;
  inputSchema: JsonSchema & { type: 'object' };
  outputSchema?: JsonSchema & { type: 'object' };
  annotations: { title?: string; readOnlyHint?: boolean; destructiveHint?: boolean; idempotentHint?: boolean; openWorldHint?: boolean };
  toolset?: string;
  binding: ToolBinding;
}

/** A toolset of the manifest: a connection that asks for it by name sees these tools (\`?toolsets=\`). */
export interface Toolset {
  name: string;
  description: string;
  tools: string[];
}
`;

export function emitToolsTs(tools: Descriptor[], toolsets: ToolsetEntry[], header: string): string {
  // JSON is a TypeScript literal except for one key: a quoted "__proto__" would set a prototype, not a property.
  const literal = JSON.stringify(tools, null, 2).replace(/"__proto__":/g, '["__proto__"]:');
  const catalogue = JSON.stringify(toolsets, null, 2);
  return (
    `${header}${INTERFACES}\nexport const toolDescriptors: ToolDescriptor[] = ${literal};\n` +
    `\nexport const toolsets: Toolset[] = ${catalogue};\n`
  );
}

export function emitToolsJson(tools: Descriptor[], headerText: string): string {
  return `${JSON.stringify({ $comment: headerText, tools }, null, 2)}\n`;
}
