import { configDefaults, defineConfig } from 'vitest/config';

// `.ci/run` runs the suite twice at once and lets its first leg (`npm test`) leave to the second the files that
// depend on neither the database nor the Node line: TESTS_IN_OTHER_LEG, comma-separated globs. Unset (a person's
// `npm test`), every file runs.
const inOtherLeg = (process.env.TESTS_IN_OTHER_LEG ?? '').split(',').filter(Boolean);

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    exclude: [...configDefaults.exclude, ...inOtherLeg],
    // dist/, which `npm start` and the MCP launcher run, is built before the first test file, not inside one.
    globalSetup: ['test/helpers/build-first.ts'],
    // FILE_CPU_LOG=<file>: one line per test file with the CPU it took (test/helpers/file-cpu.ts), for profiling.
    setupFiles: process.env.FILE_CPU_LOG ? ['test/helpers/file-cpu.ts'] : [],
    // Bounds on a hang, not on speed: with both CI legs running on 2 cores, tests that spawn the service, npm or
    // tsc have taken 40-60 s where they take a few seconds alone.
    testTimeout: 120_000,
    hookTimeout: 120_000,
    // expect.poll's default second is short on a 2-core machine running both CI legs and Chromium at once; a poll
    // still ends at its first success.
    expect: { poll: { timeout: 10_000 } },
    pool: 'forks',
    isolate: false,
    maxWorkers: 2,
  },
});
