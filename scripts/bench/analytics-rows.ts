// Rows of outreach analytics (issue 30), on embedded PGlite and, when DATABASE_URL is set, on PostgreSQL,
// each on a fresh migrated database: the analytics query (analytics-data.ts, as get_sequence_analytics and
// get_outreach_analytics run it) over a workspace with 100,000 sent messages, against a plain count(*) of the
// same rows, both timed in this process through the same client, interleaved, median of the samples. The
// messages are bulk-inserted in SQL (generate_series), not sent: sending has its own rows, and 100,000 sends
// would take minutes; their mix (bounces at once and later, replies, auto-replies, two mailboxes, two steps,
// the first with two variants, opens and clicks with tracking on for most, leads in five stages, sends spread
// over 61 days) is what the query has to read. What is timed is the whole of what the handlers read for the
// figures: the groups and the stages of the leads counted, one statement.
import { migrate } from '../../src/db/migrate.ts';
import { outreachFigures } from '../../src/handlers/analytics/analytics-data.ts';
import { analyticsRange, type AnalyticsRequest } from '../../src/handlers/analytics/analytics-range.ts';
import { openBenchDatabase, type BenchDatabase } from './bench-database.ts';
import type { RowResult } from './row-runner.ts';
import { median, quantile } from './stats.ts';

export interface AnalyticsSettings {
  /** Enrollments; each has two messages. */
  enrollments: number;
  samples: number;
  warmupSamples: number;
}

export interface AnalyticsResult {
  rows: RowResult[];
  notes: string[];
  failed: boolean;
}

export const analyticsSettings = (quick: boolean): AnalyticsSettings =>
  quick
    ? { enrollments: 50_000, samples: 5, warmupSamples: 2 }
    : { enrollments: 50_000, samples: 21, warmupSamples: 3 };

const WS = 'ws_bench_analytics';
const SEQ = 'seq_bench_analytics';
const NOW = new Date('2026-11-01T12:00:00Z');

const queries: Array<{ name: string; request: AnalyticsRequest; sequence: boolean }> = [
  {
    name: 'get_sequence_analytics, group_by step,day over 62 days in Europe/Paris',
    request: { groupBy: ['step', 'day'], from: '2026-09-01', to: '2026-11-01', timezone: 'Europe/Paris' },
    sequence: true,
  },
  {
    name: 'get_sequence_analytics, group_by step,variant, all time',
    request: { groupBy: ['step', 'variant'] },
    sequence: true,
  },
  {
    name: 'get_outreach_analytics, group_by sequence,mailbox, all time',
    request: { groupBy: ['sequence', 'mailbox'] },
    sequence: false,
  },
];

const count = (n: number) => n.toLocaleString('en');
const ms = (value: number) => `${value < 10 ? value.toFixed(1) : Math.round(value)} ms`;

export async function analyticsRows(
  settings: AnalyticsSettings,
  databaseUrl: string | undefined,
  progress: (line: string) => void,
): Promise<AnalyticsResult> {
  const result: AnalyticsResult = { rows: [], notes: [], failed: false };
  const databases: Array<[string, string | undefined]> = [
    ['PGlite', undefined],
    ...(databaseUrl ? [['PostgreSQL', databaseUrl] as [string, string]] : []),
  ];
  for (const [name, url] of databases) {
    try {
      result.rows.push(...(await measureOn(name, url, settings, progress)));
    } catch (error) {
      result.failed = true;
      result.notes.push(`Analytics rows on ${name} failed: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  if (!databaseUrl) result.notes.push('Analytics rows on PostgreSQL skipped: no DATABASE_URL.');
  result.notes.push(
    `Analytics rows: ${count(2 * settings.enrollments)} sequence messages to ${count(settings.enrollments)} leads bulk-inserted in SQL (not sent through the sender), 3% refused at once as bounces, 2% bounced later, 5% replied, 2% auto-replied, step 1 in two variants, opens tracked on all and clicks on half, 20% opened and 5% clicked, over two mailboxes and 61 days; the plain side is select count(*) of the same workspace's rows.`,
  );
  return result;
}

async function measureOn(
  name: string,
  url: string | undefined,
  s: AnalyticsSettings,
  progress: (line: string) => void,
): Promise<RowResult[]> {
  const db = await openBenchDatabase(url);
  try {
    await migrate(db.sql);
    progress(`analytics on ${name}: inserting ${count(2 * s.enrollments)} sent messages`);
    await stage(db, s.enrollments);
    const rows: RowResult[] = [];
    for (const q of queries) {
      const range = analyticsRange(q.request, NOW);
      const figures = () => outreachFigures(db.sql, WS, range, q.sequence ? SEQ : undefined);
      const plain = () => db.sql`select count(*)::int as n from sequence_messages where workspace_id = ${WS}`;
      const [first] = await plain();
      const counts = await figures();
      const total = counts.groups.reduce((sum, g) => sum + g.sent, 0);
      if (total !== first.n) throw new Error(`${q.name} counted ${total} of ${first.n} messages`);
      const leads = Object.values(counts.stages).reduce((sum, n) => sum + n, 0);
      if (leads !== s.enrollments) throw new Error(`${q.name} counted ${leads} of ${s.enrollments} leads by stage`);
      progress(`analytics on ${name}: ${q.name}, ${s.samples} samples`);
      const timed = { query: [] as number[], plain: [] as number[] };
      for (let i = 0; i < s.warmupSamples + s.samples; i++) {
        const a = await time(figures);
        const b = await time(plain);
        if (i >= s.warmupSamples) {
          timed.query.push(a);
          timed.plain.push(b);
        }
      }
      const perSample = timed.query.map((value, i) => value / timed.plain[i]);
      rows.push({
        label: `analytics over ${count(2 * s.enrollments)} sent messages: ${q.name}, median ÷ plain count(*) of the same rows (${name})`,
        a: `${ms(median(timed.query))} (p95 ${ms(quantile(timed.query, 0.95))}, n ${timed.query.length})`,
        b: ms(median(timed.plain)),
        ratio: median(timed.query) / median(timed.plain),
        spread: [quantile(perSample, 0.25), quantile(perSample, 0.75)],
      });
    }
    return rows;
  } finally {
    await db.close();
  }
}

async function time(fn: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await fn();
  return performance.now() - started;
}

async function stage(db: BenchDatabase, enrollments: number): Promise<void> {
  const sql = db.sql;
  await sql`insert into workspaces (id, name) values (${WS}, 'Bench analytics')`;
  await sql`
    insert into sequences (id, workspace_id, name, status, schedule, daily_limit, steps, created_at, updated_at)
    values (${SEQ}, ${WS}, 'Bench', 'active', '{}'::jsonb, 1000, '[]'::jsonb, ${NOW}, ${NOW})`;
  await sql`
    insert into leads (id, workspace_id, email, status, stage, created_at, updated_at)
    select 'lead_' || e, ${WS}, 'lead' || e || '@bench.example', 'active',
      (array['contacted', 'contacted', 'replied', 'interested', 'lost'])[e % 5 + 1], ${NOW}, ${NOW}
    from generate_series(1, ${enrollments}::int) e`;
  await sql`
    insert into sequence_enrollments (id, workspace_id, sequence_id, lead_id, status, enrolled_at, updated_at)
    select 'enr_' || e, ${WS}, ${SEQ}, 'lead_' || e, 'completed', ${NOW}, ${NOW} from generate_series(1, ${enrollments}::int) e`;
  await sql`
    insert into sequence_messages (id, workspace_id, sequence_id, enrollment_id, lead_id, step, variant, connector_id,
      mode, status, scheduled_at, sending_at, sent_at, reply_state, replied_at, error_code, tracked_opens,
      tracked_clicks, opened_at, clicked_at, created_at, updated_at)
    select 'msg_' || e || '_' || s, ${WS}, ${SEQ}, 'enr_' || e, 'lead_' || e, s, case when s = 1 then e % 2 + 1 end,
      case when e % 2 = 0 then 'con_a' else 'con_b' end,
      'sandbox', case when e % 33 = 0 then 'failed' else 'sent' end, t, t, case when e % 33 = 0 then null else t end,
      case when e % 33 = 0 then null when e % 50 = 0 then 'bounced' when e % 20 = 0 then 'replied'
        when e % 45 = 0 then 'auto_replied' end,
      case when e % 33 = 0 or e % 50 = 0 or e % 20 = 0 or e % 45 = 0 then t + interval '1 hour' end,
      case when e % 33 = 0 then 'bounced' end, true, e % 2 = 0,
      case when e % 5 = 1 then t + interval '2 hours' end, case when e % 20 = 3 then t + interval '3 hours' end, t, t
    from generate_series(1, ${enrollments}::int) e cross join generate_series(1, 2) s
    cross join lateral (select timestamptz '2026-09-01T00:00:00Z'
      + ((e * 7919 + s * 104729) % (61 * 86400)) * interval '1 second' as t) x`;
  await sql`analyze leads`;
  await sql`analyze sequence_messages`;
}
