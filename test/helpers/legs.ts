// Which of the suite's runs a test belongs to. `.ci/run` runs the suite twice at once: `npm test` on the embedded
// database under the machine's Node, and again on PostgreSQL under Node 24. Tests that always open an embedded
// database of their own whatever DATABASE_URL says (a data folder's files and lock; `npm start`, `npm run admin`
// and the build as processes on one) check the same thing in both runs, so the PostgreSQL run sets
// EMBEDDED_ONLY_TESTS=skip and leaves them to `npm test`. `test/scripts/first-account.test.ts` (`npm start` on a new data folder) still runs in both: it is
// the embedded database's check on the second Node line.
import { describe } from 'vitest';

const leftToEmbeddedRun = process.env.EMBEDDED_ONLY_TESTS === 'skip';

/** `describe` for tests that open an embedded database whatever DATABASE_URL says; skipped where that run leaves them. */
export const describeEmbeddedOnly = leftToEmbeddedRun
  ? (name: string, body: () => void) =>
      describe.skip(`${name} (left to the embedded run: EMBEDDED_ONLY_TESTS=skip)`, body)
  : describe;
