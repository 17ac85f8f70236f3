// A page section as chunking sees it, and the size limits its chunks keep to.
export interface Limits {
  /** Sizes in characters (4 per token). */
  target: number;
  max: number;
  overlap: number;
  /** The largest single piece: it fits in a fresh chunk after a heading or an overlap. */
  piece: number;
}

export interface Section {
  path: string[];
  /** The path without this section's own heading: sections with the same parent are siblings. Text before the first heading has none. */
  parent: string[] | null;
  heading: string | null;
  paragraphs: string[];
}
