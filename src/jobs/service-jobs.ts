// The job queue as both entries start it: the service's kinds registered, pg-boss started, the
// recurring schedules applied, and (with `work`) the worker polling.
import type { Logger } from 'pino';
import type { JobsConfig } from '../config.ts';
import type { Database } from '../db/connection.ts';
import { createJobs, type Jobs } from './jobs.ts';
import { scheduleServiceJobs, serviceJobKinds } from './kinds.ts';

export interface ServiceJobsOptions {
  db: Database;
  config: JobsConfig;
  log: Logger;
  /** Run jobs in this process (the service with JOBS_IN_PROCESS, and every worker). */
  work: boolean;
}

export async function startServiceJobs(options: ServiceJobsOptions): Promise<Jobs> {
  const { db, config } = options;
  if (!db.connectionString) throw new Error('the job queue needs Database.connectionString');
  const jobs = createJobs({
    connectionString: db.connectionString,
    sql: db.sql,
    log: options.log,
    worker: { concurrency: config.concurrency, pollIntervalMs: config.pollIntervalMs },
  });
  const kinds = serviceJobKinds({ sql: db.sql });
  jobs.register(...Object.values(kinds));
  await jobs.start({ work: options.work });
  try {
    await scheduleServiceJobs(jobs, kinds);
  } catch (error) {
    await jobs.stop({ timeoutMs: 0 });
    throw error;
  }
  return jobs;
}
