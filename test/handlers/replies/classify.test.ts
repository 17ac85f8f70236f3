import { describe, expect, it } from 'vitest';
import type { FullMessage, MessageMetadata } from '../../../src/handlers/connectors/providers/mailbox.ts';
import { addressOf, classify, clean, header, referencedIds } from '../../../src/handlers/replies/classify.ts';
import { companyDomainReader } from '../../../src/handlers/replies/company-domain.ts';

const meta = (headers: Record<string, string | string[]>): MessageMetadata => ({
  id: 'm1',
  threadId: 't1',
  labelIds: ['INBOX'],
  receivedAt: new Date('2026-01-01T00:00:00Z'),
  headers: Object.fromEntries(Object.entries(headers).map(([k, v]) => [k, Array.isArray(v) ? v : [v]])),
});
const full = (m: MessageMetadata, text: string | null, deliveryStatus: string | null = null): FullMessage => ({
  ...m,
  text,
  deliveryStatus,
});
const lead = { from: 'Jo Lead <jo@acme.com>', subject: 'Re: Quick question' };

describe('classify', () => {
  const table: Array<[string, { given: MessageMetadata | FullMessage; want: string; bounce?: string | null }]> = [
    ['a plain answer is a reply', { given: meta(lead), want: 'reply' }],
    [
      'Auto-Submitted: auto-replied is an auto-reply',
      { given: meta({ ...lead, 'auto-submitted': 'auto-replied' }), want: 'auto_reply' },
    ],
    ['Auto-Submitted: no is a reply', { given: meta({ ...lead, 'auto-submitted': 'no' }), want: 'reply' }],
    ['X-Autoreply is an auto-reply', { given: meta({ ...lead, 'x-autoreply': 'yes' }), want: 'auto_reply' }],
    ['X-Autorespond is an auto-reply', { given: meta({ ...lead, 'x-autorespond': '1' }), want: 'auto_reply' }],
    ['Precedence: bulk is an auto-reply', { given: meta({ ...lead, precedence: 'bulk' }), want: 'auto_reply' }],
    ['Precedence: junk is an auto-reply', { given: meta({ ...lead, precedence: 'JUNK' }), want: 'auto_reply' }],
    [
      'Precedence: auto_reply is an auto-reply',
      { given: meta({ ...lead, precedence: 'auto_reply' }), want: 'auto_reply' },
    ],
    ['Precedence: list is a reply', { given: meta({ ...lead, precedence: 'list' }), want: 'reply' }],
    ...(
      [
        'Out of Office: Re: Quick question',
        'Automatic reply: Quick question',
        'Absence: Re: Quick question',
        'Abwesenheitsnotiz: Re: Quick question',
        'Automatische Antwort: Quick question',
        'Fuera de la oficina: Quick question',
        'Respuesta automática: Quick question',
        'Réponse automatique : Quick question',
        'Risposta automatica: Quick question',
        'Resposta automática: Quick question',
        'Afwezig: Re: Quick question',
        'Automatisch antwoord: Quick question',
      ] as const
    ).map((subject): [string, { given: MessageMetadata; want: string }] => [
      `the subject "${subject}" is an auto-reply`,
      { given: meta({ from: lead.from, subject }), want: 'auto_reply' },
    ]),
    [
      'a delivery-status report with Status 5.1.1 is a permanent bounce',
      {
        given: full(
          meta({
            from: 'Mail Delivery Subsystem <mailer-daemon@googlemail.com>',
            subject: 'Delivery Status Notification (Failure)',
            'content-type': 'multipart/report; report-type=delivery-status; boundary="b"',
          }),
          null,
          '5.1.1',
        ),
        want: 'bounce',
        bounce: 'permanent',
      },
    ],
    [
      'a DSN with Status 4.4.1 is transient',
      {
        given: full(meta({ from: 'mailer-daemon@x.org', subject: 'Undeliverable' }), null, '4.4.1'),
        want: 'bounce',
        bounce: 'transient',
      },
    ],
    [
      'a DSN whose status is only in its text is read from the text',
      {
        given: full(meta({ from: 'postmaster@x.org', subject: 'Returned mail' }), 'Action: failed\nStatus: 4.2.2\n'),
        want: 'bounce',
        bounce: 'transient',
      },
    ],
    [
      'without the text, a "Delay" subject is transient',
      {
        given: meta({ from: 'mailer-daemon@googlemail.com', subject: 'Delivery Status Notification (Delay)' }),
        want: 'bounce',
        bounce: 'transient',
      },
    ],
    [
      'without the text, a "Failure" subject is permanent',
      {
        given: meta({ from: 'MAILER-DAEMON@googlemail.com', subject: 'Delivery Status Notification (Failure)' }),
        want: 'bounce',
        bounce: 'permanent',
      },
    ],
    [
      'X-Failed-Recipients is a bounce',
      {
        given: meta({ from: 'ops@relay.net', 'x-failed-recipients': 'jo@acme.com' }),
        want: 'bounce',
        bounce: 'permanent',
      },
    ],
    [
      'a bounce wins over an auto-reply header',
      {
        given: meta({ from: 'postmaster@x.org', 'auto-submitted': 'auto-replied' }),
        want: 'bounce',
        bounce: 'permanent',
      },
    ],
    [
      '"please unsubscribe me" with readable text is an unsubscribe request',
      { given: full(meta(lead), 'Please unsubscribe me.'), want: 'unsubscribe_request' },
    ],
    [
      '"remove me from your list" is an unsubscribe request',
      { given: full(meta(lead), 'remove me from your list'), want: 'unsubscribe_request' },
    ],
    [
      '"stop emailing me" is an unsubscribe request',
      { given: full(meta(lead), 'Stop emailing me!'), want: 'unsubscribe_request' },
    ],
    [
      'French "me désabonner" is an unsubscribe request',
      { given: full(meta(lead), 'Merci de me désabonner.'), want: 'unsubscribe_request' },
    ],
    [
      'German "abmelden" is an unsubscribe request',
      { given: full(meta(lead), 'Bitte abmelden.'), want: 'unsubscribe_request' },
    ],
    [
      'Spanish "darme de baja" is an unsubscribe request',
      { given: full(meta(lead), 'Quiero darme de baja.'), want: 'unsubscribe_request' },
    ],
    [
      'an "unsubscribe" only in the quoted thread is a reply',
      { given: full(meta(lead), 'Sounds good, call me.\n\nOn Mon, Jo wrote:\n> Unsubscribe here'), want: 'reply' },
    ],
    [
      'the word "unsubscribe" in headers alone (no text) is a reply',
      { given: meta({ ...lead, subject: 'Re: unsubscribe' }), want: 'reply' },
    ],
    ['a message with no headers at all is a reply', { given: meta({}), want: 'reply' }],
  ];
  for (const [name, { given, want, bounce }] of table) {
    it(name, () => {
      const got = classify(given, 'text' in given ? given : null);
      expect(got.classification).toBe(want);
      if (bounce !== undefined) expect(got.bounceType).toBe(bounce);
    });
  }

  it('keeps the DSN status code', () => {
    const m = meta({ from: 'mailer-daemon@x.org' });
    expect(classify(m, full(m, null, '5.2.1 '))).toMatchObject({ bounceType: 'permanent', bounceStatus: '5.2.1' });
  });

  it('classifies hostile headers without throwing', () => {
    const hostile: MessageMetadata[] = [
      meta({ from: 'jo@acme.com\r\nBcc: everyone@x.org', subject: 'Re: hi\r\nAuto-Submitted: no' }),
      meta({ from: lead.from, subject: `Re: ${'x'.repeat(1024 * 1024)}` }),
      meta({ from: '\uFFFD\uD800@acme.com', subject: '\uD83D broken \uFFFD\u0000 subject' }),
      meta({ from: lead.from, 'content-type': 'multipart/mixed; boundary="a"', subject: 'nested multipart/report' }),
      { id: 'x', threadId: 'y', labelIds: [], receivedAt: new Date(0), headers: { from: [], subject: [123 as never] } },
      { id: 'x', threadId: 'y', labelIds: [], receivedAt: new Date(0), headers: undefined as never },
    ];
    for (const m of hostile) {
      expect(() => classify(m, full(m, '\uD800'.repeat(100000)))).not.toThrow();
      expect(['reply', 'auto_reply', 'bounce', 'unsubscribe_request']).toContain(classify(m).classification);
    }
  });
});

describe('header cleaning', () => {
  it('caps a 1 MB subject at 998 characters on one line', () => {
    const s = header(meta({ subject: `a\r\nb${'x'.repeat(1024 * 1024)}` }), 'subject');
    expect(s?.length).toBe(998);
    expect(s).not.toMatch(/[\r\n]/);
  });
  it('removes NUL and lone surrogates', () => {
    expect(clean('a\u0000b\uD800c')).toBe('a b\uFFFDc');
  });
  it('reads the address of a From header', () => {
    expect(addressOf('"Jo, Lead" <Jo@Acme.COM>')).toBe('jo@acme.com');
    expect(addressOf('jo@acme.com')).toBe('jo@acme.com');
    expect(addressOf('nobody')).toBeNull();
  });
  it('reads the Message-IDs of In-Reply-To and References', () => {
    const m = meta({ 'in-reply-to': '<a@x>', references: '<b@x> <a@x>\r\n <c@x>' });
    expect(referencedIds(m)).toEqual(['<a@x>', '<b@x>', '<c@x>']);
  });
});

describe('companyDomain', () => {
  const table: Array<[string, { given: string; want: string | null }]> = [
    ['a company address gives its registrable domain', { given: 'jo@sales.acme.co.uk', want: 'acme.co.uk' }],
    ['gmail.com is free mail', { given: 'jo@gmail.com', want: null }],
    ['hotmail in any country is free mail', { given: 'jo@hotmail.co.uk', want: null }],
    ['yahoo in any country is free mail', { given: 'jo@yahoo.fr', want: null }],
    ['gmx.de is free mail', { given: 'jo@gmx.de', want: null }],
    ['an address without a domain has none', { given: 'jo', want: null }],
  ];
  for (const [name, { given, want }] of table)
    it(name, async () => expect((await companyDomainReader())(given)).toBe(want));
});
