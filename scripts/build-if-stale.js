// Builds dist/ when it is missing or older than any file it was built from (dist/build-inputs.json, written by
// scripts/build.ts), so `npm ci && npm start` works on a fresh checkout and an edited source is never served stale.
// Called in process by scripts/run-built.js (npm start, npm run worker) and bin/service-mcp.js: plain JavaScript,
// so the check costs a stat per listed file and no process of its own. A new file needs no check of its own: it
// reaches the bundle only through an import added to a listed one.
//
// Several processes may find dist/ stale at once (an MCP client starting its launchers, a test run, npm start beside
// them): one builds while holding a lock folder, the others wait for it and then check again.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const lock = `${root}dist/.build-lock`;
// A build takes seconds; a lock older than this, or held by a process that is gone, was left by a killed build.
const LOCK_ABANDONED_MS = 5 * 60_000;

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

const sleep = (ms) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);

function holderIsGone() {
  try {
    if (Date.now() - statSync(lock).mtimeMs > LOCK_ABANDONED_MS) return true;
    const pid = Number(readFileSync(`${lock}/pid`, 'utf8'));
    process.kill(pid, 0);
    return false;
  } catch (error) {
    // No pid yet: its holder is between creating the folder and writing it.
    return error.code === 'ESRCH';
  }
}

/** Takes the lock folder (mkdir is atomic), waiting while another live process holds it. */
function takeLock() {
  mkdirSync(`${root}dist`, { recursive: true });
  for (;;) {
    try {
      mkdirSync(lock);
      writeFileSync(`${lock}/pid`, String(process.pid));
      return;
    } catch (error) {
      if (error.code !== 'EEXIST') throw error;
    }
    if (holderIsGone()) rmSync(lock, { recursive: true, force: true });
    else sleep(100);
  }
}

/** Builds dist/ if it is stale; the build's output goes to stderr (stdout is the service's log or the MCP wire). */
export function buildIfStale() {
  if (!staleReason()) return;
  takeLock();
  try {
    const reason = staleReason();
    if (!reason) return;
    process.stderr.write(`building dist/ (${reason})\n`);
    const built = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/build.ts'], {
      cwd: root,
      stdio: ['ignore', 2, 2],
    });
    if (built.status !== 0) throw new Error(`building dist/ failed (exit ${built.status ?? built.signal})`);
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}
