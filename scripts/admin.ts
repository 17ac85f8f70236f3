// Operator CLI: `npm run admin -- <command> [options]`, run from the build as `npm start` is (scripts/run-built.js).
// Works on the same database as the service (DATABASE_URL, or the embedded one under DATA_DIR while the service
// is stopped).
import { randomBytes } from 'node:crypto';
import { parseArgs } from 'node:util';
import { loadConfig } from '../src/config.ts';
import { openDatabase } from '../src/db/connection.ts';
import { builtFirstStartTemplate } from '../src/db/built-template.ts';
import { migrate } from '../src/db/migrate.ts';
import { createServices } from '../src/services.ts';
import type { KeyRole } from '../src/handlers/api-keys/api-keys-data.ts';
import { effectiveKeyRole } from '../src/handlers/api-keys/key-roles.ts';
import { createAdminCommands, type AdminCommands } from './admin/commands.ts';
import pino from 'pino';

const USAGE = `usage: npm run admin -- <command> [options]

commands:
  create-workspace --name <workspace> --owner-email <email> --owner-name <name>
                   creates a workspace and its owner; the password is read from
                   OWNER_PASSWORD, or generated and printed once
  list-workspaces
  mint-key --workspace <ws_id> --name <key name> [--role admin|member]
                   prints the new key once; store it in a secret manager. The key
                   belongs to the workspace (no creator) and acts with --role
                   (default admin) until revoked
  list-keys --workspace <ws_id>
  revoke-key --key <key_id>
                   rejected by every instance from the next request on

database: DATABASE_URL (PostgreSQL), else the embedded database in DATA_DIR (default ./data),
which only one process can open: stop the service first, or run it on PostgreSQL.`;

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    name: { type: 'string' },
    'owner-email': { type: 'string' },
    'owner-name': { type: 'string' },
    workspace: { type: 'string' },
    key: { type: 'string' },
    role: { type: 'string' },
    help: { type: 'boolean', short: 'h' },
  },
});

function required(name: keyof typeof values): string {
  const value = values[name];
  if (typeof value !== 'string' || !value.trim()) throw new Error(`--${name} is required\n\n${USAGE}`);
  return value;
}

async function run(commands: AdminCommands, command: string | undefined): Promise<void> {
  switch (command) {
    case 'create-workspace': {
      const generated = !process.env.OWNER_PASSWORD;
      const password = process.env.OWNER_PASSWORD ?? randomBytes(18).toString('base64url');
      const out = await commands.createWorkspace({
        name: required('name'),
        ownerEmail: required('owner-email'),
        ownerName: required('owner-name'),
        password,
      });
      console.log(`workspace ${out.workspaceId} created; owner ${out.userId} <${out.email}>`);
      if (generated) console.log(`owner password (shown once): ${password}`);
      return;
    }
    case 'list-workspaces':
      for (const w of await commands.listWorkspaces())
        console.log(`${w.id}\t${w.name}\t${w.members} member(s)\t${w.created_at.toISOString()}`);
      return;
    case 'mint-key': {
      const out = await commands.mintKey({
        workspaceId: required('workspace'),
        name: required('name'),
        role: (values.role ?? 'admin') as KeyRole,
      });
      console.log(`key ${out.id} (prefix ${out.prefix}) minted for ${out.workspaceId}, acting as ${out.role}`);
      console.log(`SERVICE_API_KEY=${out.key}`);
      console.log('This is the only time the key is shown.');
      return;
    }
    case 'list-keys':
      for (const k of await commands.listKeys(required('workspace'))) {
        const status = k.revoked_at
          ? `revoked ${k.revoked_at.toISOString()} (${k.revoked_reason ?? 'revoked'})`
          : `active as ${effectiveKeyRole(k)}`;
        console.log(
          `${k.id}\t${k.prefix}\t${k.name}\t${status}\tcreated by ${k.created_by ?? 'operator CLI'}\tlast used ${k.last_used_at?.toISOString() ?? 'never'}`,
        );
      }
      return;
    case 'revoke-key': {
      const out = await commands.revokeKey(required('key'));
      console.log(`key ${out.id} revoked at ${out.revoked_at?.toISOString()}`);
      return;
    }
    default:
      throw new Error(command ? `unknown command "${command}"\n\n${USAGE}` : USAGE);
  }
}

if (values.help || positionals.length === 0) {
  console.log(USAGE);
  process.exit(values.help ? 0 : 2);
}

const config = loadConfig(process.env);
let exitCode = 0;
const db = await openDatabase({
  databaseUrl: config.databaseUrl,
  dataDir: config.dataDir,
  folderTemplate: builtFirstStartTemplate(),
  embeddedSharedBuffersMb: config.database.embeddedSharedBuffersMb,
}).catch((error: Error) => {
  console.error(`admin: ${error.message}`);
  process.exit(1);
});
try {
  await migrate(db.sql);
  const services = await createServices({ db, config, log: pino({ level: 'warn' }) });
  try {
    await run(createAdminCommands(services.deps), positionals[0]);
  } finally {
    await services.close();
  }
} catch (error) {
  console.error(`admin: ${error instanceof Error ? error.message : String(error)}`);
  exitCode = 1;
} finally {
  await db.close();
}
process.exit(exitCode);
