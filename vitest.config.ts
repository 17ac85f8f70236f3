import { configDefaults, defineConfig } from 'vitest/config';

// `.ci/run` runs the suite twice at once and lets its first leg (`npm test`) leave to the second the files that
// depend on neither the database nor the Node line: TESTS_IN_OTHER_LEG, comma-separated globs. Unset (a person's
// `npm test`), every file runs.
const inOtherLeg = (process.env.TESTS_IN_OTHER_LEG ?? '').split(',').filter(Boolean);

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    exclude: [...configDefaults.exclude, ...inOtherLeg],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
    isolate: false,
    maxWorkers: 2,
  },
});
