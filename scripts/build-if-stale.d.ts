/** Builds dist/ if it is stale (scripts/build-if-stale.js); the build's output goes to stderr. */
export function buildIfStale(): void;
