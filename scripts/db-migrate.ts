// npm run db:migrate: applies pending migrations to DATABASE_URL, or else to the embedded
// database in DATA_DIR (default ./data). Stop the server first when it uses the same DATA_DIR:
// an embedded data folder must be open in one process at a time.
import { openDatabase } from '../src/db/connection.ts';
import { migrate } from '../src/db/migrate.ts';

async function main(): Promise<void> {
  const databaseUrl = process.env.DATABASE_URL || undefined;
  const db = await openDatabase(
    databaseUrl ? { databaseUrl, poolSize: 1 } : { dataDir: process.env.DATA_DIR || './data' },
  );
  try {
    const applied = await migrate(db.sql);
    for (const name of applied) console.log(`applied ${name}`);
    if (applied.length === 0) console.log('up to date');
  } finally {
    await db.close();
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : String(error));
  process.exitCode = 1;
});
