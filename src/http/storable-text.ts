// Text PostgreSQL cannot store: U+0000 (SQLSTATE 22021 in text and jsonb) and a lone UTF-16 surrogate (no UTF-8
// form; it would fail or come back as U+FFFD). This is the one check for it: the validation step runs it over
// every value a request hands an operation, at any depth and object keys included, so free-form values (custom
// fields, agent inputs) are refused with a 400 naming the field instead of failing in the database.

const UNSTORABLE = /\u0000|\p{Cs}/u;

// One bad field is enough to name; a body full of them need not be walked to its end.
const MAX_FINDINGS = 20;

export const UNSTORABLE_MESSAGE = 'must not contain U+0000 (NUL) or an unpaired UTF-16 surrogate';

export function storable(text: string): boolean {
  return !UNSTORABLE.test(text);
}

/** Where unstorable text sits: the path to the value, or to the member whose key holds it. */
export interface UnstorableFinding {
  path: Array<string | number>;
  key: boolean;
}

/**
 * A place the check leaves alone, as JSON pointer segments with `*` for any array item or member; the contract
 * declares them (`x-unchecked-text`) where an operation reports such text itself, e.g. a lead import's rows.
 */
export type UncheckedPath = readonly string[];

export function uncheckedPath(pointer: string): UncheckedPath {
  return pointer === ''
    ? []
    : pointer
        .slice(1)
        .split('/')
        .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
}

function isUnchecked(path: ReadonlyArray<string | number>, unchecked: readonly UncheckedPath[]): boolean {
  return unchecked.some(
    (pattern) => pattern.length === path.length && pattern.every((s, i) => s === '*' || s === String(path[i])),
  );
}

function walk(
  value: unknown,
  path: Array<string | number>,
  unchecked: readonly UncheckedPath[],
  found: UnstorableFinding[],
): void {
  if (found.length >= MAX_FINDINGS) return;
  if (unchecked.length && isUnchecked(path, unchecked)) return;
  if (typeof value === 'string') {
    if (UNSTORABLE.test(value)) found.push({ path: [...path], key: false });
    return;
  }
  if (value === null || typeof value !== 'object') return;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      path.push(i);
      walk(value[i], path, unchecked, found);
      path.pop();
    }
    return;
  }
  for (const key of Object.keys(value)) {
    path.push(key);
    if (UNSTORABLE.test(key) && found.length < MAX_FINDINGS) found.push({ path: [...path], key: true });
    walk((value as Record<string, unknown>)[key], path, unchecked, found);
    path.pop();
  }
}

/** Every place in `value` (a parsed body, or a record of parameters) that holds unstorable text. */
export function findUnstorableText(value: unknown, unchecked: readonly UncheckedPath[] = []): UnstorableFinding[] {
  const found: UnstorableFinding[] = [];
  walk(value, [], unchecked, found);
  return found;
}
