// Names a REST validation error by the tool argument it came from. The REST problem points at the request
// (`/name` in the body, `query.limit`, `header.idempotency-key`); an agent knows only the tool's arguments,
// whose names can differ from the wire keys (`Idempotency-Key` is `idempotency_key`), so the binding maps
// them back.

import type { ToolDescriptor } from './tool-descriptor.ts';

export interface FieldError {
  pointer?: string;
  field?: string;
  code?: string;
  message?: string;
}

/** The argument path of one field error (`name`, `filter.tags[0]`), or undefined when it names none. */
export type ArgumentNamer = (error: FieldError) => string | undefined;

function render(segments: string[]): string {
  return segments.map((s, i) => (/^\d+$/.test(s) && i > 0 ? `[${s}]` : `${i > 0 ? '.' : ''}${s}`)).join('');
}

function unescapePointer(segment: string): string {
  return segment.replace(/~1/g, '/').replace(/~0/g, '~');
}

export function argumentNames(tool: ToolDescriptor): ArgumentNamer {
  const byKey = new Map<string, string>();
  let wholeBody: string | undefined;
  for (const arg of tool.binding.args) {
    if (arg.in === 'body' && tool.binding.body === 'whole') wholeBody = arg.name;
    // Header names are case-insensitive and arrive lower-cased.
    else byKey.set(`${arg.in}:${arg.in === 'header' ? arg.key.toLowerCase() : arg.key}`, arg.name);
  }
  return (error) => {
    if (error.pointer !== undefined) {
      const segments = error.pointer === '' ? [] : error.pointer.slice(1).split('/').map(unescapePointer);
      if (wholeBody !== undefined) return render([wholeBody, ...segments]);
      const name = segments.length > 0 ? byKey.get(`body:${segments[0]}`) : undefined;
      return name === undefined ? undefined : render([name, ...segments.slice(1)]);
    }
    const [where, key, ...rest] = (error.field ?? '').split('.');
    const name = key === undefined ? undefined : byKey.get(`${where}:${where === 'header' ? key.toLowerCase() : key}`);
    return name === undefined ? undefined : render([name, ...rest]);
  };
}
