import { describe, expect, it } from 'vitest';
import { readCsvRows } from '../../../src/handlers/leads/csv-rows.ts';
import {
  csvCell,
  csvLine,
  LEAD_EXPORT_COLUMNS,
  leadExportHeader,
  leadExportRow,
  leadsCsv,
  type ExportableLead,
} from '../../../src/handlers/leads/export-csv.ts';
import { applyColumnMap, planColumns } from '../../../src/handlers/leads/lead-columns.ts';
import { normalizeLead } from '../../../src/handlers/leads/lead-fields.ts';

async function collect(lines: AsyncIterable<string>): Promise<string> {
  let text = '';
  for await (const line of lines) text += line;
  return text;
}

async function* from<T>(items: T[]): AsyncGenerator<T> {
  yield* items;
}

describe('csvCell', () => {
  it.each<[string, unknown, string]>([
    ['a formula', '=SUM(A1)', "'=SUM(A1)"],
    ['a leading plus', '+1', "'+1"],
    ['a leading minus', '-2', "'-2"],
    ['a leading at sign', '@x', "'@x"],
    ['a leading tab', '\tx', "'\tx"],
    ['a leading carriage return, then quoted', '\rx', `"'\rx"`],
    [
      'a formula holding quotes and commas, escaped then quoted',
      '=HYPERLINK("http://x.example","y")',
      `"'=HYPERLINK(""http://x.example"",""y"")"`,
    ],
    ['a leading minus with a comma', '-1,5', `"'-1,5"`],
    ['quotes', 'say "hi"', '"say ""hi"""'],
    ['a comma', 'Acme, Inc.', '"Acme, Inc."'],
    ['a newline', 'line one\nline two', '"line one\nline two"'],
    ['a CRLF', 'line one\r\nline two', '"line one\r\nline two"'],
    ['a formula character after the start', 'a=b+c-d@e', 'a=b+c-d@e'],
    ['a semicolon', 'vip;q3', 'vip;q3'],
    ['plain text', 'Jane', 'Jane'],
    ['an empty string', '', ''],
    ['a positive number', 42, '42'],
    ['a negative number, which stays a number', -2, '-2'],
    ['a decimal', 3.5, '3.5'],
    ['zero', 0, '0'],
    ['NaN', Number.NaN, ''],
    ['Infinity', Infinity, ''],
    ['a bigint', 10n, '10'],
    ['true', true, 'true'],
    ['null', null, ''],
    ['undefined', undefined, ''],
    ['a date', new Date('2024-05-01T12:00:00Z'), '2024-05-01T12:00:00.000Z'],
    ['an array, joined by the tag separator', ['vip', 'q3'], 'vip;q3'],
    ['an array starting with a formula', ['=1+1', 'x'], "'=1+1;x"],
    ['an object, as JSON', { tier: 'pro' }, '"{""tier"":""pro""}"'],
  ])('writes %s', (_, value, want) => {
    expect(csvCell(value)).toBe(want);
  });
});

describe('csvLine', () => {
  it('joins the cells with commas and ends the line with CRLF', () => {
    expect(csvLine(['a', 1, null, 'b,c', '=x'])).toBe(`a,1,,"b,c",'=x\r\n`);
  });
});

describe('leadExportHeader and leadExportRow', () => {
  it('adds one custom.<key> column per custom field key after the fixed columns', () => {
    expect(leadExportHeader(['plan', 'seats'])).toEqual([...LEAD_EXPORT_COLUMNS, 'custom.plan', 'custom.seats']);
  });

  it('lays a lead out in header order, with empty cells for what it lacks', () => {
    const lead: ExportableLead = {
      id: 'lead_1',
      email: 'jane@acme.com',
      tags: ['vip'],
      status: 'active',
      stage: 'contacted',
      custom_fields: { plan: 'pro' },
    };
    const row = leadExportRow(lead, ['plan', 'seats', 'constructor']);
    expect(row).toEqual([
      'lead_1',
      'jane@acme.com',
      ...Array(8).fill(undefined),
      ['vip'],
      'active',
      'contacted',
      undefined,
      undefined,
      'pro',
      null,
      null,
    ]);
  });
});

describe('leadsCsv', () => {
  it('yields the header line, then one line per row', async () => {
    const lines: string[] = [];
    for await (const line of leadsCsv(
      ['email', 'note'],
      from([
        ['a@a.com', '=1'],
        ['b@b.com', 'x, y'],
      ]),
    ))
      lines.push(line);
    expect(lines).toEqual(['email,note\r\n', "a@a.com,'=1\r\n", 'b@b.com,"x, y"\r\n']);
  });

  it('starts with a BOM when asked, for Excel', async () => {
    expect(await collect(leadsCsv(['email'], from([]), { bom: true }))).toBe('\ufeffemail\r\n');
  });

  it('writes a file that imports back to the same leads', async () => {
    const leads: ExportableLead[] = [
      {
        id: 'lead_1',
        email: 'jane@acme.com',
        first_name: 'Jane',
        last_name: '-Doe',
        company: 'Acme, Inc.',
        title: 'VP "Growth"',
        phone: '+49 30 1234567',
        website: 'https://acme.com/',
        linkedin_url: 'https://www.linkedin.com/in/janedoe',
        timezone: 'Europe/Berlin',
        tags: ['vip', 'q3, fair'],
        status: 'new',
        created_at: new Date('2024-05-01T12:00:00Z'),
        updated_at: new Date('2024-05-02T12:00:00Z'),
        custom_fields: { plan: '=pro', notes: 'line one\nline two' },
      },
    ];
    const keys = ['plan', 'notes'];
    const file = await collect(
      leadsCsv(leadExportHeader(keys), from(leads.map((lead) => leadExportRow(lead, keys))), { bom: true }),
    );

    const imported: unknown[] = [];
    let plan: ReturnType<typeof planColumns> | undefined;
    for await (const item of readCsvRows(from([file]))) {
      if ('header' in item) plan = planColumns(item.header);
      else if ('record' in item && plan && 'plan' in plan)
        imported.push(normalizeLead(applyColumnMap(item.record, plan.plan)));
    }
    expect(plan && 'plan' in plan && plan.plan.unmappedHeaders).toEqual([
      'id',
      'status',
      'stage',
      'created_at',
      'updated_at',
    ]);
    const { id, status, created_at, updated_at, ...fields } = leads[0];
    expect(imported).toEqual([{ lead: fields }]);
  });
});
