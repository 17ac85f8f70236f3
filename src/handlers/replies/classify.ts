// What an inbound message in one of our threads is: a person's reply, an auto-reply, a delivery failure
// (a DSN), or a request to stop. Pure and total: whatever a sender puts in its headers (CRLF, megabytes,
// broken UTF-8, no headers at all) comes out classified, never as an exception. Only the first MAX_FIELD
// characters of any header and MAX_TEXT of the text are looked at, so a hostile message costs no more than
// a normal one.
import type { FullMessage, MessageMetadata } from '../connectors/providers/mailbox.ts';

export type Classification = 'reply' | 'auto_reply' | 'bounce' | 'unsubscribe_request';

export interface Classified {
  classification: Classification;
  /** For a bounce: 5.x.x (or a failure notice) is permanent, 4.x.x (or a delay notice) transient. */
  bounceType: 'permanent' | 'transient' | null;
  bounceStatus: string | null;
}

/** RFC 5322's line limit: no legitimate header value we read is longer. */
export const MAX_FIELD = 998;
const MAX_TEXT = 20_000;

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;
const wellFormed = (s: string) => s.replace(LONE_SURROGATE, '\uFFFD');

/** A header value made safe to inspect and store: one line, no NUL, no lone surrogates, capped. */
export function clean(value: string | null | undefined, max = MAX_FIELD): string | null {
  if (value == null) return null;
  const line = value
    .slice(0, max * 2)
    // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are exactly what is removed
    .replace(/[\u0000-\u0008\u000b-\u001f\u007f]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  return wellFormed(line.slice(0, max)) || null;
}

/** Text to store or read: NUL and lone surrogates removed (PostgreSQL refuses both), capped. */
export function cleanText(value: string | null | undefined, max = MAX_TEXT): string | null {
  if (value == null) return null;
  return wellFormed(value.slice(0, max).replaceAll('\u0000', '')) || null;
}

/** The first value of a header, cleaned. Header names are lower-cased by the reader. */
export function header(m: Pick<MessageMetadata, 'headers'>, name: string): string | null {
  const values = m.headers?.[name];
  return Array.isArray(values) && typeof values[0] === 'string' ? clean(values[0]) : null;
}

/** The bare address of a From/To value (`Jo <jo@acme.com>` → jo@acme.com), lower-cased. */
export function addressOf(value: string | null): string | null {
  if (!value) return null;
  const angled = /<([^<>\s]+@[^<>\s]+)>/.exec(value);
  const bare = angled ? angled[1] : /[^\s<>"',;:]+@[^\s<>"',;:]+/.exec(value)?.[0];
  return bare ? bare.toLowerCase().slice(0, 320) : null;
}

/** The Message-IDs named by In-Reply-To and References, each as `<id>` (how we store ours). */
export function referencedIds(m: Pick<MessageMetadata, 'headers'>): string[] {
  const raw = [...(m.headers?.['in-reply-to'] ?? []), ...(m.headers?.references ?? [])]
    .filter((v) => typeof v === 'string')
    .map((v) => v.slice(0, 20 * MAX_FIELD))
    .join(' ');
  return [...new Set(raw.match(/<[^<>\s]{1,400}>/g) ?? [])].slice(0, 100);
}

const AUTO_SUBJECT = new RegExp(
  [
    'out of (the )?office',
    'out-of-office',
    'automatic reply',
    'auto(matic)?[- ]?(reply|response|respond)',
    'autoreply',
    'away from (the )?office',
    '^absence',
    'absence du bureau',
    'réponse automatique',
    'reponse automatique',
    'message d.absence',
    'abwesenheit',
    'abwesend',
    'automatische antwort',
    'außer haus',
    'nicht im büro',
    'fuera de la oficina',
    'respuesta automática',
    'respuesta automatica',
    '\\bausente\\b',
    'risposta automatica',
    'fuori (sede|ufficio)',
    'resposta automática',
    'resposta automatica',
    'fora do escritório',
    '\\bafwezig',
    'automatisch antwoord',
    'niet op kantoor',
  ].join('|'),
  'iu',
);

const UNSUBSCRIBE_TEXT = new RegExp(
  [
    '\\bunsubscribe\\b',
    '\\bremove me\\b',
    'take me off',
    'stop (e-?mailing|sending|contacting|writing)',
    "(do not|don't|dont) (e-?mail|contact|write to) me",
    'opt(ing)? out',
    'désabonner',
    'desabonner',
    'désinscrire',
    'desinscrire',
    'ne plus recevoir',
    'ne me contactez plus',
    'abmelden',
    'austragen',
    'keine (weiteren )?(e-?mails|nachrichten)',
    'darse de baja',
    'darme de baja',
    'dar de baja',
    'no me (escriban|envíen|envien|contacten)',
  ].join('|'),
  'iu',
);

const DELAY_SUBJECT = /delay|delayed|temporar|warning|will retry|still trying|verzögert|retardé|retrasad/iu;

function contentType(m: MessageMetadata): string {
  return (header(m, 'content-type') ?? '').toLowerCase();
}

function isDsn(m: MessageMetadata, from: string | null): boolean {
  const type = contentType(m);
  if (type.includes('multipart/report') && /report-type\s*=\s*"?delivery-status/.test(type)) return true;
  if (m.headers?.['x-failed-recipients']?.length) return true;
  const local = from?.slice(0, from.indexOf('@')) ?? '';
  return local === 'mailer-daemon' || local === 'postmaster';
}

/** 5.x.x / 4.x.x from the DSN's Status (readable text), else a guess from the subject: a delay is transient. */
function bounceOf(m: MessageMetadata, full: FullMessage | null): Pick<Classified, 'bounceType' | 'bounceStatus'> {
  const status =
    /^\s*([245])\.\d{1,3}\.\d{1,3}/.exec(full?.deliveryStatus ?? '')?.[0].trim() ??
    /\bStatus:\s*([45]\.\d{1,3}\.\d{1,3})/i.exec(full?.text?.slice(0, MAX_TEXT) ?? '')?.[1] ??
    null;
  if (status?.startsWith('4')) return { bounceType: 'transient', bounceStatus: status };
  if (status?.startsWith('5')) return { bounceType: 'permanent', bounceStatus: status };
  const subject = header(m, 'subject') ?? '';
  return { bounceType: DELAY_SUBJECT.test(subject) ? 'transient' : 'permanent', bounceStatus: status };
}

function isAutoReply(m: MessageMetadata): boolean {
  const submitted = header(m, 'auto-submitted')?.toLowerCase();
  if (submitted && !/^no\b/.test(submitted)) return true;
  if (m.headers?.['x-autoreply']?.length || m.headers?.['x-autorespond']?.length) return true;
  if (/^(auto_reply|bulk|junk)\b/.test(header(m, 'precedence')?.toLowerCase() ?? '')) return true;
  const subject = (header(m, 'subject') ?? '').normalize('NFC');
  return AUTO_SUBJECT.test(subject);
}

/** What the lead wrote above the quoted thread: a quoted "unsubscribe" from our own footer must not count. */
function ownWords(text: string): string {
  const lines: string[] = [];
  for (const line of text.slice(0, MAX_TEXT).split(/\r?\n/)) {
    if (/^\s*>/.test(line)) continue;
    if (
      /^\s*(on .{0,200} wrote:|le .{0,200} a écrit|am .{0,200} schrieb|el .{0,200} escribió|-----\s*original)/i.test(
        line,
      )
    )
      break;
    lines.push(line);
  }
  return lines.join('\n').normalize('NFC');
}

/** Classifies one inbound message; `full` only when the connector may read text (read_reply_text). */
export function classify(m: MessageMetadata, full: FullMessage | null = null): Classified {
  const from = addressOf(header(m, 'from'));
  if (isDsn(m, from)) return { classification: 'bounce', ...bounceOf(m, full) };
  const none = { bounceType: null, bounceStatus: null };
  if (isAutoReply(m)) return { classification: 'auto_reply', ...none };
  const text = full?.text;
  if (typeof text === 'string' && UNSUBSCRIBE_TEXT.test(ownWords(text)))
    return { classification: 'unsubscribe_request', ...none };
  return { classification: 'reply', ...none };
}
