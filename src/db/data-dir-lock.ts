// PGlite takes no lock on its data folder, and two processes writing one folder lose rows
// (for example `npm run db:migrate` beside a running server), so a pid file makes that an error.
// The start time tells a stale file from a previous process that had our pid (containers).
import { readFileSync, writeFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';

const LOCK_FILE = 'service-mcp.lock';
const ownLock = `${process.pid} ${Math.round(performance.timeOrigin)}`;

/** Takes the folder's lock file or throws saying who holds it; synchronous, so a start-up's opening waits for nothing. */
export function lockDataDir(dataDir: string): () => Promise<void> {
  const file = join(dataDir, LOCK_FILE);
  try {
    writeFileSync(file, ownLock, { flag: 'wx' });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    const holder = readHolder(file);
    if (isHeld(holder)) {
      const pid = holder.split(' ')[0];
      throw new Error(`data folder ${dataDir} is in use by process ${pid} (lock file ${file})`);
    }
    writeFileSync(file, ownLock);
  }
  return () => rm(file, { force: true });
}

function readHolder(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return '';
  }
}

function isHeld(holder: string): boolean {
  const pid = Number(holder.split(' ')[0]);
  if (!Number.isInteger(pid) || pid <= 0) return false;
  if (pid === process.pid) return holder === ownLock;
  return processAlive(pid);
}

/** Whether a process with this id runs on this machine (one of another user's counts: signalling it is refused). */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
