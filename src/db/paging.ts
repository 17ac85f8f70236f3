// The keyset position lists page from: a row's timestamp and id, as decoded from a cursor.
export interface PageBound {
  /** ISO timestamp. */
  at: string;
  id: string;
}
