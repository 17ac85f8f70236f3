// A throwaway schema on a PostgreSQL server, for test runs and benchmarks: the connection's search_path
// names it, and close() drops it with everything in it.
import { randomBytes } from 'node:crypto';
import { openDatabase, type Database } from './connection.ts';

export async function openPrivateSchema(databaseUrl: string, prefix: string): Promise<Database & { schema: string }> {
  const schema = `${prefix}_${randomBytes(6).toString('hex')}`;
  // search_path may name a schema that does not exist yet; it resolves once it is created.
  const db = await openDatabase({ databaseUrl, searchPath: schema });
  const close = async (): Promise<void> => {
    try {
      await db.sql.unsafe(`drop schema if exists ${schema} cascade`);
    } finally {
      await db.close();
    }
  };
  try {
    await db.sql.unsafe(`create schema ${schema}`);
  } catch (error) {
    await close();
    throw error;
  }
  return { ...db, schema, close };
}
