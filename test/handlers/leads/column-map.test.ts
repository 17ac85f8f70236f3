import { describe, expect, it } from 'vitest';
import {
  applyColumnMap,
  applyColumnMapToFields,
  indexColumns,
  planColumns,
  type ColumnPlan,
} from '../../../src/handlers/leads/lead-columns.ts';
import { normalizeLead } from '../../../src/handlers/leads/lead-fields.ts';

function planOf(header: string[], columnMap?: Record<string, string>): ColumnPlan {
  const result = planColumns(header, columnMap);
  if ('errors' in result) throw new Error(`unexpected errors: ${JSON.stringify(result.errors)}`);
  return result.plan;
}

function targetsOf(plan: ColumnPlan): Record<string, string> {
  return Object.fromEntries(
    plan.columns.map(({ header, target }) => [
      header,
      'field' in target ? target.field : `custom_fields.${target.customField}`,
    ]),
  );
}

describe('planColumns', () => {
  it.each([
    ['E-mail', 'email'],
    ['Email Address', 'email'],
    ['EMAIL_ADDRESS', 'email'],
    ['First Name', 'first_name'],
    ['Given name', 'first_name'],
    ['first-name', 'first_name'],
    ['Last Name', 'last_name'],
    ['Surname', 'last_name'],
    ['Company Name', 'company'],
    ['Organization', 'company'],
    ['Job Title', 'title'],
    ['Phone Number', 'phone'],
    ['Mobile', 'phone'],
    ['Website', 'website'],
    ['URL', 'website'],
    ['LinkedIn', 'linkedin_url'],
    ['linkedin_url', 'linkedin_url'],
    ['Time zone', 'timezone'],
    ['Tags', 'tags'],
    ['custom.plan', 'custom_fields.plan'],
    ['custom_fields.seat_count', 'custom_fields.seat_count'],
  ])('maps the header %j to %s by default', (header, field) => {
    expect(targetsOf(planOf(field === 'email' ? [header] : ['Email', header]))).toMatchObject({ [header]: field });
  });

  it('lists headers it cannot map as unmapped, once, without failing', () => {
    const plan = planOf(['Email', 'Favourite colour', 'Lead Score', '', 'custom.bad-key']);
    expect(targetsOf(plan)).toEqual({ Email: 'email' });
    expect(plan.unmappedHeaders).toEqual(['Favourite colour', 'Lead Score', 'custom.bad-key']);
  });

  it('maps columns named in column_map to a field, a custom field or nowhere', () => {
    const plan = planOf(['Work Mail', 'Plan', 'Internal ID', 'First Name', 'Notes'], {
      'Work Mail': 'email',
      Plan: 'custom_fields.plan',
      'Internal ID': 'ignore',
    });
    expect(targetsOf(plan)).toEqual({ 'Work Mail': 'email', Plan: 'custom_fields.plan', 'First Name': 'first_name' });
    expect(plan.unmappedHeaders).toEqual(['Notes']);
  });

  it('lets column_map override an alias and leaves the displaced header unmapped', () => {
    const plan = planOf(['Email', 'Personal Email', 'Title'], {
      'Personal Email': 'email',
      Title: 'custom_fields.salutation',
    });
    expect(targetsOf(plan)).toEqual({ 'Personal Email': 'email', Title: 'custom_fields.salutation' });
    expect(plan.unmappedHeaders).toEqual(['Email']);
  });

  it('matches column_map keys case-insensitively when no header matches exactly', () => {
    expect(targetsOf(planOf(['EMAIL', 'PLAN'], { plan: 'custom_fields.plan' }))).toEqual({
      EMAIL: 'email',
      PLAN: 'custom_fields.plan',
    });
  });

  it('prefers the best alias when several headers alias one field', () => {
    const plan = planOf(['Mobile', 'Email', 'Phone']);
    expect(targetsOf(plan)).toEqual({ Email: 'email', Phone: 'phone' });
    expect(plan.unmappedHeaders).toEqual(['Mobile']);
  });

  it.each([
    ['a key naming no header', { Mail: 'email' }, 'unknown_column'],
    ['an unknown target', { Plan: 'plan' }, 'invalid_mapping'],
    ['custom_fields without a key', { Plan: 'custom_fields' }, 'invalid_mapping'],
    ['an invalid custom field key', { Plan: 'custom_fields.2nd-plan' }, 'custom_field_key_invalid'],
    ['two columns mapped to one field', { Plan: 'email', Email: 'email' }, 'duplicate_mapping'],
  ])('reports %s', (_, columnMap, code) => {
    expect(planColumns(['Email', 'Plan'], columnMap)).toMatchObject({ errors: [{ code }] });
  });

  it('reports a file without an email column', () => {
    expect(planColumns(['Name', 'Company'])).toMatchObject({
      errors: [{ column: 'email', code: 'email_column_missing' }],
    });
    expect(planColumns(['Email', 'Company'], { Email: 'ignore' })).toMatchObject({
      errors: [{ code: 'email_column_missing' }],
    });
  });

  it('reports more than 50 custom field columns', () => {
    const header = ['Email', ...Array.from({ length: 51 }, (_, i) => `custom.f${i}`)];
    expect(planColumns(header)).toMatchObject({
      errors: [{ column: 'custom_fields', code: 'custom_fields_too_many' }],
    });
  });
});

describe('applyColumnMap', () => {
  const plan = planOf(['E-mail', 'Given name', 'Company Name', 'Tags', 'Plan', 'Internal', 'Source'], {
    Plan: 'custom_fields.plan',
    Internal: 'ignore',
  });

  it('turns a record into normalizeLead input, splitting tags on ";"', () => {
    const input = applyColumnMap(
      {
        'E-mail': 'Jane@Acme.com',
        'Given name': 'Jane',
        'Company Name': 'Acme, Inc.',
        Tags: 'vip; q3 ;;',
        Plan: 'pro',
        Internal: '42',
        Source: 'fair',
      },
      plan,
    );
    expect(input).toEqual({
      email: 'Jane@Acme.com',
      first_name: 'Jane',
      company: 'Acme, Inc.',
      tags: ['vip', 'q3'],
      custom_fields: { plan: 'pro' },
    });
    expect(normalizeLead(input)).toMatchObject({
      lead: { email: 'jane@acme.com', tags: ['vip', 'q3'], custom_fields: { plan: 'pro' } },
    });
  });

  it('keeps custom values as text and empty cells as empty strings that normalise to null', () => {
    const input = applyColumnMap(
      { 'E-mail': 'jane@acme.com', 'Given name': '', 'Company Name': '', Tags: '', Plan: '007' },
      plan,
    );
    expect(input).toEqual({
      email: 'jane@acme.com',
      first_name: '',
      company: '',
      tags: [],
      custom_fields: { plan: '007' },
    });
    expect(normalizeLead(input)).toMatchObject({
      lead: { first_name: null, company: null, tags: [], custom_fields: { plan: '007' } },
    });
  });

  it("removes the export's formula-escaping apostrophe and keeps other apostrophes", () => {
    const input = applyColumnMap(
      {
        'E-mail': 'jane@acme.com',
        'Given name': "'=Jane",
        'Company Name': "O'Brien & Co",
        Tags: "'-new;'@x",
        Plan: "''+1",
      },
      plan,
    );
    expect(input).toEqual({
      email: 'jane@acme.com',
      first_name: '=Jane',
      company: "O'Brien & Co",
      tags: ['-new', "'@x"],
      custom_fields: { plan: "''+1" },
    });
  });

  it('reads only own properties of the record', () => {
    const constructorPlan = planOf(['Email', 'constructor'], { constructor: 'custom_fields.constructor' });
    expect(applyColumnMap({ Email: 'jane@acme.com' }, constructorPlan)).toEqual({ email: 'jane@acme.com' });
  });
});

describe('applyColumnMapToFields', () => {
  const header = ['E-mail', 'Given name', '', 'Company Name', 'Tags', 'Plan', 'Internal', 'Source'];
  const plan = planOf(header, { Plan: 'custom_fields.plan', Internal: 'ignore' });

  it.each([
    ['a full row', ['Jane@Acme.com', 'Jane', 'x', 'Acme, Inc.', 'vip; q3 ;;', 'pro', '42', 'fair']],
    ['empty cells', ['jane@acme.com', '', '', '', '', '007', '', '']],
    ['escaped formulas', ['jane@acme.com', "'=Jane", '', "O'Brien & Co", "'-new;'@x", "''+1", '', '']],
  ])('gives what applyColumnMap gives for the keyed record: %s', (_, fields) => {
    const record = Object.fromEntries(header.flatMap((name, i) => (name === '' ? [] : [[name, fields[i]]])));
    expect(applyColumnMapToFields(fields, indexColumns(plan, header))).toEqual(applyColumnMap(record, plan));
  });
});
