// Spawns test/jobs/fixtures/effects-worker.ts as a real process and reads its stdout lines.
import { fileURLToPath } from 'node:url';
import { spawnLineProcess, type LineProcess } from '../helpers/child-lines.ts';

const entry = fileURLToPath(new URL('./fixtures/effects-worker.ts', import.meta.url));

export type ChildWorker = LineProcess;

export const spawnWorker = (env: Record<string, string>): ChildWorker => spawnLineProcess(entry, env);
