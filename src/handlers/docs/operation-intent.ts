// Which operations a docs question names or clearly implies ("revoke api key" -> `revoke_api_key`), and
// the boost that gives their passages in the ranker (docs-index.ts).
import type { DocsPassage } from './docs-passage.ts';
import type { Analyzer } from './stemmer.ts';

/** How much a synonym counts towards naming an operation. */
const SYNONYM_INTENT = 0.8;
/** A passage that mentions the operation, rather than being its contract passage, gets this share of it. */
const MENTION_SHARE = 0.6;

interface ToolName {
  tool: string;
  /** Stemmed parts of the name with their weight: rarer among tool names, heavier. */
  parts: Array<{ part: string; weight: number; generic: boolean }>;
}

/**
 * The parts of every tool name. A part that starts many tools (`get`, `list`) is generic: it cannot
 * name an operation alone, so "I get a 429" names no `get_*` tool.
 */
export function toolNames(analyze: Analyzer, tools: string[]): ToolName[] {
  const split = tools.map((tool) => ({ tool, parts: analyze(tool).filter((p) => p !== tool) }));
  const withPart = new Map<string, number>();
  const leading = new Map<string, number>();
  for (const { parts } of split) {
    for (const p of new Set(parts)) withPart.set(p, (withPart.get(p) ?? 0) + 1);
    if (parts[0]) leading.set(parts[0], (leading.get(parts[0]) ?? 0) + 1);
  }
  return split.map(({ tool, parts }) => ({
    tool,
    parts: parts.map((part) => ({
      part,
      weight: Math.log(1 + tools.length / (withPart.get(part) ?? 1)),
      generic: (leading.get(part) ?? 0) >= 4,
    })),
  }));
}

/**
 * How strongly the question names each operation: the weighted share of the name's parts among the
 * question's terms (synonyms counting SYNONYM_INTENT), squared; the whole name written out counts 1.
 * Below half, or with only generic parts found, the question does not name it.
 */
export function operationIntent(names: ToolName[], terms: Map<string, number>, order: string[]): Map<string, number> {
  const intent = new Map<string, number>();
  for (const { tool, parts } of names) {
    if (terms.get(tool) === 1) {
      intent.set(tool, 1);
      continue;
    }
    if (verbAfterItsObject(parts, order)) continue;
    let total = 0;
    let found = 0;
    let specific = false;
    for (const { part, weight, generic } of parts) {
      const credit = terms.get(part) === 1 ? 1 : terms.has(part) ? SYNONYM_INTENT : 0;
      total += weight;
      found += weight * credit;
      if (credit > 0 && !generic) specific = true;
    }
    const share = total > 0 ? found / total : 0;
    if (specific && share >= 0.5) intent.set(tool, share * share);
  }
  return intent;
}

/**
 * A name's leading generic verb found after its object in the question is the question's own verb, not the
 * operation's: "my agent gets a 403" does not name `get_agent`, "get the agent" does.
 */
function verbAfterItsObject(parts: ToolName['parts'], order: string[]): boolean {
  const [verb, object] = parts;
  if (!verb?.generic || !object) return false;
  const v = order.indexOf(verb.part);
  const o = order.indexOf(object.part);
  return v >= 0 && o >= 0 && v > o;
}

export /** The strongest boost a passage earns from the operations the question names. */
function operationBoost(passage: DocsPassage, intent: Map<string, number>): number {
  let boost = 0;
  for (const [tool, strength] of intent) {
    if (passage.source === `openapi:${tool}`) boost = Math.max(boost, strength);
    else if (passage.tools.includes(tool)) boost = Math.max(boost, strength * MENTION_SHARE);
  }
  return boost;
}
