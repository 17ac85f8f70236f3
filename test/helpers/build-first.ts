// vitest's global setup: builds dist/ once, before any test file runs, when it is stale (a fresh clone, an edited
// source). The tests that start the service as `npm start` and the MCP launcher run it (scripts/run-built.js,
// bin/service-mcp.js) would otherwise build it in whichever of them came first, inside that test's own time limit:
// a 7 s build on a quiet machine, several times that on a loaded CI machine (both legs and the static checks), and
// the likely cause of a CI run whose first `npm start` test timed out at 60 s.
import { buildIfStale } from '../../scripts/build-if-stale.js';

export default function buildFirst(): void {
  buildIfStale();
}
