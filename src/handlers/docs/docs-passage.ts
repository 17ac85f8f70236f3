// A passage of the search_docs corpus, and the tools a text names (which every kind of passage lists).

export interface DocsPassage {
  id: string;
  /** The document's title, or the operation's summary. */
  title: string;
  /** The heading path inside the document (`Credentials › Operator CLI`), or the operation's method and path. */
  heading: string | null;
  text: string;
  /** `README.md#<anchor>`, `docs/<file>.md#<anchor>` or `openapi:<operationId>`. */
  source: string;
  /** Operation ids the passage names, in order of mention; a contract passage's own comes first. */
  tools: string[];
}

/** Operation ids named in a text: any identifier inside backticks, and snake_case names anywhere. */
export function toolsMentioned(text: string, toolNames: Set<string>): string[] {
  const found: Array<{ at: number; name: string }> = [];
  for (const span of text.matchAll(/`([^`\n]+)`/g)) {
    for (const id of span[1].matchAll(/(?<![\w.])[A-Za-z_]\w*(?![\w.])/g)) {
      if (toolNames.has(id[0])) found.push({ at: (span.index ?? 0) + (id.index ?? 0), name: id[0] });
    }
  }
  for (const m of text.matchAll(/\b[a-z][a-z0-9]*(?:_[a-z0-9]+)+\b/g))
    if (toolNames.has(m[0])) found.push({ at: m.index ?? 0, name: m[0] });
  return [...new Set(found.sort((a, b) => a.at - b.at).map((f) => f.name))];
}
