// Names made from operation ids, paths and schema keys: tool names, TypeScript identifiers, argument names.

const TOOL_NAME = /^[a-zA-Z0-9_-]{1,64}$/;

export function isValidToolName(name: string): boolean {
  return TOOL_NAME.test(name);
}

function shortHash(text: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193) >>> 0;
  return h.toString(36).padStart(7, '0').slice(0, 7);
}

/** Fits a name into 64 characters, keeping it unique with a hash of the whole. */
function fit(name: string, max = 64): string {
  return name.length <= max ? name : `${name.slice(0, max - 8)}_${shortHash(name)}`;
}

/** Latin letters without their accents (`Über` -> `Uber`), so names keep them instead of dropping them. */
export function asciiFold(text: string): string {
  return text.normalize('NFKD').replace(/[\u0300-\u036f]/g, '');
}

function cleanToolName(source: string): string {
  return asciiFold(source)
    .replace(/[^a-zA-Z0-9_-]+/g, '_')
    .replace(/_+/g, '_')
    .replace(/^[_-]+|[_-]+$/g, '');
}

/**
 * A tool name from an operationId, or from method and path when there is none or nothing of it survives
 * sanitising (`日本語`, `---`).
 */
export function toolNameFor(operationId: string | undefined, method: string, path: string): string {
  const fromId = operationId === undefined ? '' : cleanToolName(operationId);
  if (fromId) return fit(fromId);
  const fromPath = cleanToolName(`${method}_${path.replace(/\{([^}]*)\}/g, 'by_$1')}`).toLowerCase();
  return fit(fromPath === method ? `${method}_root` : fromPath);
}

const RESERVED = new Set(
  (
    'break case catch class const continue debugger default delete do else enum export extends false finally for ' +
    'function if import in instanceof new null return super switch this throw true try typeof var void while with ' +
    'yield let static implements interface package private protected public await any boolean number string ' +
    'symbol never unknown object undefined type'
  ).split(' '),
);

export function isIdentifier(text: string): boolean {
  return /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(text) && !RESERVED.has(text);
}

/** The operationId itself when it is a valid identifier, else a camelCase one made from it. */
export function operationIdentifier(text: string): string {
  return isIdentifier(text) ? text : identifier(text);
}

/** A valid, readable TypeScript identifier in camelCase. */
export function identifier(text: string): string {
  const words = asciiFold(text)
    .split(/[^a-zA-Z0-9]+/)
    .filter(Boolean);
  let out = words
    .map((w, i) => (i === 0 ? w.charAt(0).toLowerCase() + w.slice(1) : w.charAt(0).toUpperCase() + w.slice(1)))
    .join('');
  if (!out) out = 'op';
  if (/^[0-9]/.test(out)) out = `_${out}`;
  if (RESERVED.has(out)) out = `${out}_`;
  return out;
}

export function typeName(text: string): string {
  const id = identifier(text).replace(/^_/, 'N');
  return id.charAt(0).toUpperCase() + id.slice(1);
}

const ARG_REPLACEMENTS: Array<[RegExp, string]> = [
  [/<=/g, '_lte'],
  [/>=/g, '_gte'],
  [/</g, '_lt'],
  [/>/g, '_gt'],
  [/!=/g, '_ne'],
  [/=/g, '_eq'],
  [/\[\]/g, ''],
];

/** An MCP argument name that strict clients accept: `^[a-zA-Z0-9_.-]{1,64}$`. */
export function argName(text: string): string {
  let out = asciiFold(text);
  for (const [pattern, replacement] of ARG_REPLACEMENTS) out = out.replace(pattern, replacement);
  out = out.replace(/[^a-zA-Z0-9_.-]+/g, '_').replace(/^_+(?=.)/, '');
  return fit(out || 'arg');
}

/**
 * The argument name of a header parameter: snake case (`Idempotency-Key` -> `idempotency_key`), since header
 * names are case-insensitive words joined by hyphens and agents expect arguments spelt like the body's fields.
 */
export function headerArgName(header: string): string {
  return argName(header.toLowerCase().replace(/-/g, '_'));
}

/** Gives every name in order a unique variant, deterministically (`x`, `x_2`, `x_3`...). */
export function uniqueNamer(taken: Iterable<string> = []): (name: string) => string {
  const used = new Set(taken);
  return (name) => {
    let candidate = name;
    for (let n = 2; used.has(candidate); n++) candidate = `${name.slice(0, 64 - String(n).length - 1)}_${n}`;
    used.add(candidate);
    return candidate;
  };
}

/** An object-literal key for any string: a quoted `"__proto__"` would set the prototype, the computed form does not. */
export function propertyKey(name: string): string {
  return name === '__proto__' ? `[${JSON.stringify(name)}]` : JSON.stringify(name);
}
