// Libraries that only some requests need (HTML parsing, Markdown, MIME, iCalendar, CSV, the public suffix list) load
// at their first use, through a dynamic import that the build makes a chunk of its own, instead of with the service:
// a start loads and compiles only what serving needs (issue 32). A load that failed is tried again at the next use.

/** `load` run once, at the first call; every call gets its result. */
export function loadOnce<T>(load: () => Promise<T>): () => Promise<T> {
  let loaded: Promise<T> | undefined;
  return () => {
    loaded ??= load().catch((error: unknown) => {
      loaded = undefined;
      throw error;
    });
    return loaded;
  };
}
