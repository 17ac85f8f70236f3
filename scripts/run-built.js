// `npm start`, `npm run worker` and `npm run admin`: `node scripts/run-built.js <main|worker|admin> [args]` builds
// dist/ if it is stale, then runs that entry of the build in this same process, with the args that follow its name.
// One node process, not a prestart script and then the service: npm's lifecycle script cost a shell and a node
// start of its own (about 0.1 s) before the service began, and npm execs this, so a signal to the process still
// reaches the service's shutdown handler (src/shutdown.ts).
import { buildIfStale } from './build-if-stale.js';

const entry = process.argv[2];
if (entry !== 'main' && entry !== 'worker' && entry !== 'admin') {
  process.stderr.write('usage: node scripts/run-built.js <main|worker|admin> [args]\n');
  process.exit(2);
}
try {
  buildIfStale();
} catch (error) {
  process.stderr.write(`${error.message}\n`);
  process.exit(1);
}
// The entry reads its own arguments (the CLI's command and options) where Node put them, after the script's path.
process.argv.splice(2, 1);
await import(`../dist/${entry}.js`);
