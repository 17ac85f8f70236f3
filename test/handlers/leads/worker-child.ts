// Spawns test/handlers/leads/fixtures/import-worker.ts as a real process and reads its stdout lines.
import { fileURLToPath } from 'node:url';
import { spawnLineProcess, type LineProcess } from '../../helpers/child-lines.ts';

const entry = fileURLToPath(new URL('./fixtures/import-worker.ts', import.meta.url));

export type ImportWorker = LineProcess;

export const spawnImportWorker = (env: Record<string, string>): ImportWorker => spawnLineProcess(entry, env);
