// vitest's global setup: builds dist/ once, before any test file runs, when it is stale (a fresh clone, an edited
// source). The tests that start the service as `npm start` and the MCP launcher run it (scripts/run-built.js,
// bin/service-mcp.js) would otherwise build it in whichever of them came first, inside that test's own time limit:
// on a loaded CI machine, the 7 s build became 40 s and more, behind the other leg's hold of the build lock, and the
// test timed out.
import { buildIfStale } from '../../scripts/build-if-stale.js';

export default function buildFirst(): void {
  buildIfStale();
}
