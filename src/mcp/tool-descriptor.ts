// The descriptor shape is defined once, by the generator, in src/generated/mcp-tools.ts; this module
// names it for the MCP code.
import type { ToolArg, ToolDescriptor } from '../generated/mcp-tools.ts';

export type { JsonSchema, ToolArg, ToolBinding, ToolDescriptor, Toolset } from '../generated/mcp-tools.ts';
export type ArgLocation = ToolArg['in'];
export type ToolAnnotations = ToolDescriptor['annotations'];
