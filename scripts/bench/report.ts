// Renders the measured rows and per-target figures as markdown.
import type { RowResult, TargetStats } from './row-runner.ts';

export interface ReportInput {
  rows: RowResult[];
  targets: TargetStats[];
  howMeasured: string;
  facts: Record<string, string>;
  notes: string[];
}

const fixed = (value: number | undefined, digits: number) =>
  value === undefined || !Number.isFinite(value) ? '—' : value.toFixed(digits);

function rowLine(r: RowResult): string {
  const goal = r.goal ? `${r.goal.op === '>=' ? '≥' : '≤'} ${r.goal.value}` : '—';
  const met = r.met === undefined ? '—' : r.met ? 'yes' : '**no**';
  const spread = r.spread ? `${fixed(r.spread[0], 2)}–${fixed(r.spread[1], 2)}` : '—';
  return `| ${r.label} | ${r.a} | ${r.b} | ${fixed(r.ratio, 2)} | ${spread} | ${fixed(r.cpuRatio, 2)} | ${goal} | ${met} |`;
}

function targetLine(t: TargetStats): string {
  const min = Math.min(...t.requestsPerSecond);
  const max = Math.max(...t.requestsPerSecond);
  return `| ${t.name} | ${Math.round(t.medianRequestsPerSecond)} | ${Math.round(min)}–${Math.round(max)} | ${fixed(t.medianCpuMicrosPerRequest, 0)} |`;
}

export function renderReport(input: ReportInput): string {
  const lines = [
    '# Benchmark',
    '',
    ...Object.entries(input.facts).map(([k, v]) => `- ${k}: ${v}`),
    '',
    '| row | A | B | ratio A/B | per-round IQR | ratio by CPU | goal | met? |',
    '|---|---:|---:|---:|---:|---:|---|---|',
    ...input.rows.map(rowLine),
    '',
    'Ratio A/B: of median requests/sec (HTTP rows) or of median wall time (codegen); "met?" judges this ratio.',
    'Per-round IQR: interquartile range of the ratios within each round (A and B measured moments apart), a gauge',
    'of how much machine noise moved the row. Ratio by CPU: the same comparison from CPU time instead — server CPU',
    'per request (B ÷ A) for HTTP rows, child CPU time (A ÷ B) for codegen — which does not depend on whether the',
    'server or the load generator was the bottleneck, and which other load on the machine disturbs less.',
    'Long-work rows: jobs/s end to end ÷ write transactions/s of the same database (higher is better; the IQR is over',
    'rounds), and the median wake-up latency ÷ the median plain round trip (lower is better; the IQR is of per-sample',
    'ratios); their absolute figures are beside them for information only.',
    'Knowledge rows: pages/s through extract + chunk + index ÷ raw page inserts/s of the same database (higher is better;',
    "the IQR is over rounds), and search latency medians ÷ the bare full-text query's median on the same data (lower is",
    'better; the IQR is of per-sample ratios); absolute figures beside them are for information only.',
    'Lead rows: import rows/s end to end through the API ÷ plain unnest insert rows/s into the same table, and on',
    'PostgreSQL ÷ psql \\copy rows/s of the same file into a copy of that table (higher is',
    "better; the IQR is over rounds), and the service's peak RSS while importing a large csv_url ÷ its idle RSS (lower is",
    "better; the MB above idle beside it); absolute figures, and the issue's absolute goals in the notes, are for information only.",
    'Reply rows: inbound messages/s synced and classified ÷ plain fetch of the same messages/s (higher is better; the IQR is',
    'over rounds), and reply-to-stop latency medians ÷ the plain read each needs (lower is better; the IQR is of per-sample ratios).',
    '',
    '| target | median req/s | range over rounds | server CPU µs/req |',
    '|---|---:|---:|---:|',
    ...input.targets.map(targetLine),
    '',
    '## How measured',
    '',
    input.howMeasured,
  ];
  if (input.notes.length) lines.push('', '## Notes', '', ...input.notes.map((n) => `- ${n}`));
  return `${lines.join('\n')}\n`;
}
