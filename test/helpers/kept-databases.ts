// A test process hands a closed test database to the next file that asks for one, emptied, instead of building
// another: on PGlite a new database costs ~0.6 s and a second of CPU (the WebAssembly backend's start and the
// template's unpacking), on PostgreSQL ~0.4 s (a schema and every migration). Emptying one costs a few
// milliseconds. Reuse is only for a database whose structure the test left as it found it: its catalog rows are
// compared, count and newest transaction, with what they were when it was made; any table, column, function,
// index, role or schema a test created, changed or dropped (and not dropped again) makes it closed for good.

/** How the emptying reaches the database: a pool no test uses any more, or PGlite itself. */
export interface Runner {
  rows<T>(query: string, params?: unknown[]): Promise<T[]>;
  /** Several statements in one simple query, in one transaction when `atomic`. */
  script(text: string, atomic?: boolean): Promise<void>;
}

/** What a reused database must look like again: its catalog rows, the size of its tables, on PGlite its schemas. */
export interface Baseline {
  catalog: string;
  bytes: number;
  schemas: string[];
}

// A test that writes more than this (a bulk import) leaves a database that is cheaper to build again than to empty.
const MAX_GROWTH_BYTES = 4 * 1024 * 1024;

// The rows that describe a schema's objects, counted with their newest creating transaction: creating or changing
// an object inserts or updates a row (a new xmin), dropping one removes rows. Rows a test added and removed again
// leave both figures as they were.
const schemaCatalog = `
  with ns as (select oid from pg_namespace where nspname = $1),
  rels as (select c.oid from pg_class c join ns on c.relnamespace = ns.oid),
  parts(name, n, x) as (
    select 'class', count(*), max(c.xmin::text::bigint) from pg_class c join ns on c.relnamespace = ns.oid
    union all select 'attribute', count(*), max(a.xmin::text::bigint) from pg_attribute a join rels on a.attrelid = rels.oid
    union all select 'attrdef', count(*), max(d.xmin::text::bigint) from pg_attrdef d join rels on d.adrelid = rels.oid
    union all select 'index', count(*), max(i.xmin::text::bigint) from pg_index i join rels on i.indrelid = rels.oid
    union all select 'trigger', count(*), max(t.xmin::text::bigint) from pg_trigger t join rels on t.tgrelid = rels.oid
    union all select 'rewrite', count(*), max(r.xmin::text::bigint) from pg_rewrite r join rels on r.ev_class = rels.oid
    union all select 'policy', count(*), max(p.xmin::text::bigint) from pg_policy p join rels on p.polrelid = rels.oid
    union all select 'sequence', count(*), max(s.xmin::text::bigint) from pg_sequence s join rels on s.seqrelid = rels.oid
    union all select 'constraint', count(*), max(k.xmin::text::bigint) from pg_constraint k join ns on k.connamespace = ns.oid
    union all select 'proc', count(*), max(p.xmin::text::bigint) from pg_proc p join ns on p.pronamespace = ns.oid
    union all select 'type', count(*), max(t.xmin::text::bigint) from pg_type t join ns on t.typnamespace = ns.oid
  )`;

// PGlite is the test's alone: roles, extensions, database settings and large objects count as well.
const wholeCatalog = `${schemaCatalog},
  everything(name, n, x) as (
    select * from parts
    union all select 'authid', count(*), max(xmin::text::bigint) from pg_authid
    union all select 'extension', count(*), max(xmin::text::bigint) from pg_extension
    union all select 'db_role_setting', count(*), max(xmin::text::bigint) from pg_db_role_setting
    union all select 'largeobject', count(*), max(xmin::text::bigint) from pg_largeobject_metadata
    union all select 'database', count(*), max(xmin::text::bigint) from pg_database
  )
  select string_agg(name || '=' || n || '@' || coalesce(x, 0), ' ' order by name) as catalog from everything`;

const schemaOnly = `${schemaCatalog} select string_agg(name || '=' || n || '@' || coalesce(x, 0), ' ' order by name) as catalog from parts`;

const SCHEMAS = 'select nspname::text as name from pg_namespace order by 1';

/** Run as a database is made (migrated or not, before any test has used it). */
export async function baseline(db: Runner, schema: string, whole: boolean): Promise<Baseline> {
  const schemas = whole ? (await db.rows<{ name: string }>(SCHEMAS)).map((r) => r.name) : [];
  return { catalog: await catalog(db, schema, whole), bytes: await sizeOf(db, schema), schemas };
}

async function catalog(db: Runner, schema: string, whole: boolean): Promise<string> {
  const [row] = await db.rows<{ catalog: string }>(whole ? wholeCatalog : schemaOnly, [schema]);
  return row.catalog;
}

async function sizeOf(db: Runner, schema: string): Promise<number> {
  const [row] = await db.rows<{ bytes: string }>(
    `select coalesce(sum(pg_total_relation_size(c.oid)), 0)::bigint::text as bytes
       from pg_class c join pg_namespace n on n.oid = c.relnamespace
      where n.nspname = $1 and c.relkind in ('r', 'p')`,
    [schema],
  );
  return Number(row.bytes);
}

/**
 * Empties `schema` (every row but the record of applied migrations, sequences back to their start) and, on a
 * database of its own (`whole`), ends any transaction left open, forgets the session's settings and prepared
 * statements and drops the schemas the test added; then says whether what is left is the database as it was made.
 */
export async function emptied(
  db: Runner,
  schema: string,
  made: Baseline,
  whole: boolean,
  keptSchemas: string[] = [],
): Promise<boolean> {
  if (whole) {
    await db.script('rollback');
    await db.script('discard all');
    for (const { name } of await db.rows<{ name: string }>(SCHEMAS)) {
      if (!made.schemas.includes(name) && !keptSchemas.includes(name))
        await db.script(`drop schema "${name.replaceAll('"', '""')}" cascade`);
    }
  }
  if ((await sizeOf(db, schema)) - made.bytes > MAX_GROWTH_BYTES) return false;
  const [emptying] = await db.rows<{ statements: string | null }>(
    `select string_agg(s, ';\n') as statements from (
       select format('delete from %I.%I', n.nspname, c.relname) as s
         from pg_class c join pg_namespace n on n.oid = c.relnamespace
        where n.nspname = $1 and c.relkind in ('r', 'p') and c.relname <> 'schema_migrations'
       union all
       select format('select setval(%L, %s, false)', format('%I.%I', n.nspname, c.relname), s.seqstart)
         from pg_sequence s join pg_class c on c.oid = s.seqrelid join pg_namespace n on n.oid = c.relnamespace
        where n.nspname = $1) statements`,
    [schema],
  );
  // Replica mode leaves out foreign-key checks and triggers, so the tables empty in any order. setval, unlike
  // ALTER SEQUENCE … RESTART, leaves the catalog as it was.
  if (emptying?.statements) {
    await db.script(`set local session_replication_role = replica;\n${emptying.statements}`, true);
  }
  return (await catalog(db, schema, whole)) === made.catalog;
}

/**
 * Empties a pg-boss schema kept with a test database for the next app on it (its jobs, archive, schedules and
 * subscriptions; its queues and their partitions stay, and the next start updates a changed queue policy), and
 * forgets when pg-boss last ran its maintenance and cron, so the next app's start runs them as on a new schema.
 * Starting pg-boss on a new schema is ~25 statements of DDL (a partition per queue): a few hundred ms on PGlite.
 * Says whether it is kept: a schema that grew past the bound, or that pg-boss never made, is dropped instead.
 */
export async function emptiedJobs(db: Runner, schema: string): Promise<boolean> {
  const quoted = `"${schema.replaceAll('"', '""')}"`;
  const [made] = await db.rows<{ job: string | null }>('select to_regclass($1)::text as job', [`${quoted}.job`]);
  if (made?.job && (await sizeOf(db, schema)) <= MAX_GROWTH_BYTES) {
    await db.script(
      `set local session_replication_role = replica;
       delete from ${quoted}.job; delete from ${quoted}.archive;
       delete from ${quoted}.schedule; delete from ${quoted}.subscription;
       update ${quoted}.version set maintained_on = null, cron_on = null, monitored_on = null`,
      true,
    );
    return true;
  }
  await db.script(`drop schema if exists ${quoted} cascade`);
  return false;
}
