// The service target: the real app (createServices + createApp, plus the bench-only routes) served
// by @hono/node-server in its own process, on a temporary database. Options come in BENCH_SERVICE.
import { serve, type ServerType } from '@hono/node-server';
import type { AddressInfo } from 'node:net';
import { createApp } from '../../src/app.ts';
import { loadConfig } from '../../src/config.ts';
import { migrate } from '../../src/db/migrate.ts';
import { createServices } from '../../src/services.ts';
import { openBenchDatabase } from './bench-database.ts';
import { mountBenchRoutes, mountTrackingBenchRoutes } from './bench-routes.ts';
import { runAsChild } from './child-protocol.ts';

export interface ServiceOptions {
  databaseUrl?: string;
  logLevel: string;
}

const options = JSON.parse(process.env.BENCH_SERVICE ?? '{}') as ServiceOptions;
// Limits far above what a run sends: the throttle still runs on every request, but never refuses.
const unlimited = '1000000000';

await runAsChild(async () => {
  const db = await openBenchDatabase(options.databaseUrl);
  try {
    await migrate(db.sql);
    const config = loadConfig({
      LOG_LEVEL: options.logLevel,
      RATE_LIMIT_PER_CREDENTIAL: unlimited,
      RATE_LIMIT_PER_ADDRESS: unlimited,
    });
    const services = await createServices({ db, config });
    const app = createApp(services.deps);
    mountBenchRoutes(app, services.deps);
    mountTrackingBenchRoutes(app, services.deps);
    const server = await new Promise<ServerType>((resolve) => {
      const s = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(s));
    });
    const { port } = server.address() as AddressInfo;
    return {
      url: `http://127.0.0.1:${port}`,
      info: { database: db.description, logLevel: options.logLevel },
      async stop() {
        await new Promise<void>((resolve) => {
          server.close(() => resolve());
          if ('closeAllConnections' in server) server.closeAllConnections();
        });
        await services.close();
        await db.close();
      },
    };
  } catch (error) {
    await db.close();
    throw error;
  }
});
