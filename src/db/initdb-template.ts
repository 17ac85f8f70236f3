// The dump of a fresh embedded data folder that the build writes beside its bundles (scripts/build.ts defines
// __INITDB_TEMPLATE__, its path in the repository): a new data folder is unpacked from it instead of running
// initdb. Run from the sources through tsx there is none, and a new folder runs initdb.
import { fileURLToPath } from 'node:url';

declare const __INITDB_TEMPLATE__: string | undefined;

export function builtInitdbTemplate(): string | undefined {
  return typeof __INITDB_TEMPLATE__ === 'string'
    ? fileURLToPath(new URL(`../../${__INITDB_TEMPLATE__}`, import.meta.url))
    : undefined;
}
