// One batch of an import as the engine (import-engine.ts) fills it: each item normalised and encoded as
// it arrives (LeadBatch), its row errors, and, when batches are written two at a time, a number per
// address so that two batches sharing one are never in flight together.
import type { NewImportError } from './lead-imports-data.ts';
import type { LeadBatch } from './lead-batch.ts';
import { normalizeLead } from './lead-fields.ts';
import type { ImportItem } from './import-items.ts';

/** A batch normalised and encoded as its items arrive, so that neither raw rows nor lead objects are kept. */
export class PreparedBatch {
  total = 0;
  lastRow = 0;
  readonly errors: NewImportError[] = [];
  readonly invalidRows: number[] = [];
  readonly duplicateRows: number[] = [];
  /** A 30-bit hash of each address (small integers: no string is kept), when `keyed`. */
  private readonly keys: Set<number> | undefined;

  constructor(
    readonly leads: LeadBatch,
    keyed = false,
  ) {
    this.keys = keyed ? new Set() : undefined;
  }

  add(item: ImportItem): void {
    this.total += 1;
    this.lastRow = item.row;
    const line = item.line ?? null;
    if ('errors' in item) {
      this.invalidRows.push(item.row);
      for (const e of item.errors)
        this.errors.push({
          row: item.row,
          line,
          column: e.column || null,
          value: e.value ?? null,
          code: e.code,
          message: e.message,
        });
      return;
    }
    const normalized = normalizeLead(item.input);
    if ('errors' in normalized) {
      this.invalidRows.push(item.row);
      for (const e of normalized.errors)
        this.errors.push({ row: item.row, line, column: e.column, value: e.value, code: e.code, message: e.message });
      return;
    }
    const { email } = normalized.lead;
    this.keys?.add(addressKey(email));
    // A second copy of an address in one batch is a duplicate of the first (a later batch finds it written).
    if (this.leads.has(email)) this.duplicateRows.push(item.row);
    else this.leads.add(item.row, normalized.lead);
  }

  /**
   * Whether the two batches may hold one address (a hash collision answers yes, which only costs
   * waiting). Either batch not keyed: yes.
   */
  mayShareAddressWith(other: PreparedBatch): boolean {
    if (!this.keys || !other.keys) return true;
    const [small, large] = this.keys.size <= other.keys.size ? [this.keys, other.keys] : [other.keys, this.keys];
    for (const key of small) if (large.has(key)) return true;
    return false;
  }
}

/** FNV-1a over the UTF-16 units, cut to 30 bits so that V8 keeps it as a small integer. */
function addressKey(email: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < email.length; i++) hash = Math.imul(hash ^ email.charCodeAt(i), 0x01000193);
  return hash & 0x3fffffff;
}
