// Where the build wrote the template of a new embedded data folder (src/first-start-template.ts makes it;
// scripts/build.ts defines __FIRST_START_TEMPLATE__, its path in the repository): a new data folder is unpacked
// from it instead of running initdb and every migration. Run from the sources through tsx there is none, and a new
// folder runs initdb, then the migrations.
import { fileURLToPath } from 'node:url';

declare const __FIRST_START_TEMPLATE__: string | undefined;

export function builtFirstStartTemplate(): string | undefined {
  return typeof __FIRST_START_TEMPLATE__ === 'string'
    ? fileURLToPath(new URL(`../../${__FIRST_START_TEMPLATE__}`, import.meta.url))
    : undefined;
}
