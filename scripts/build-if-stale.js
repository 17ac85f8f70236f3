// Run before `npm start` and `npm run worker`: builds dist/ when it is missing or older than any file it was built
// from (dist/build-inputs.json, written by scripts/build.ts), so `npm ci && npm start` works on a fresh checkout and
// an edited source is never served stale. Plain JavaScript, so the check costs one node start and a stat per file.
// A new file needs no check of its own: it reaches the bundle only through an import added to a listed one.
import { spawnSync } from 'node:child_process';
import { readFileSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));

/** Why dist/ must be rebuilt, or undefined when it is current. */
function staleReason() {
  let manifest;
  try {
    manifest = JSON.parse(readFileSync(`${root}dist/build-inputs.json`, 'utf8'));
  } catch {
    return 'no build yet';
  }
  for (const input of manifest.inputs) {
    let modified;
    try {
      modified = statSync(`${root}${input}`).mtimeMs;
    } catch {
      return `${input} is gone`;
    }
    if (modified >= manifest.builtAt) return `${input} changed`;
  }
  return undefined;
}

const reason = staleReason();
if (reason) {
  // stderr: stdout carries the service's JSON log alone.
  process.stderr.write(`building dist/ (${reason})\n`);
  const built = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/build.ts'], { cwd: root, stdio: 'inherit' });
  process.exit(built.status ?? 1);
}
