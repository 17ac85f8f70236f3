// The service as it runs in production for the import memory row: createServices + createApp in its
// own process, jobs worked in that process (a private pg-boss schema), outbound fetches allowed to
// reach 127.0.0.1 (the CSV comes from the bench), on a temporary database. Options in BENCH_SERVICE.
import { serve, type ServerType } from '@hono/node-server';
import type { AddressInfo } from 'node:net';
import { createApp } from '../../src/app.ts';
import { loadConfig } from '../../src/config.ts';
import { migrate } from '../../src/db/migrate.ts';
import { createServices } from '../../src/services.ts';
import { benchJobsSchema, openBenchDatabase } from './bench-database.ts';
import { runAsChild } from './child-protocol.ts';
import type { ServiceOptions } from './serve-service.ts';

const options = JSON.parse(process.env.BENCH_SERVICE ?? '{}') as ServiceOptions;

await runAsChild(async () => {
  const db = await openBenchDatabase(options.databaseUrl);
  const jobsSchema = benchJobsSchema(db, 'import');
  try {
    await migrate(db.sql);
    // The bench's client follows the operation with a waiting GET per change: not a load to rate-limit.
    const config = loadConfig({
      LOG_LEVEL: options.logLevel,
      RATE_LIMIT_PER_CREDENTIAL: '1000000000',
      RATE_LIMIT_PER_ADDRESS: '1000000000',
      OUTBOUND_ALLOW_PRIVATE: 'true',
    });
    const services = await createServices({ db, config, jobsSchema: jobsSchema.name });
    await services.startJobs({ work: true });
    const app = createApp(services.deps);
    const server = await new Promise<ServerType>((resolve) => {
      const s = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(s));
    });
    return {
      url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
      info: { database: db.description },
      async stop() {
        await new Promise<void>((resolve) => {
          server.close(() => resolve());
          if ('closeAllConnections' in server) server.closeAllConnections();
        });
        await services.close();
        await jobsSchema.drop();
        await db.close();
      },
    };
  } catch (error) {
    await db.close();
    throw error;
  }
});
