// Sequence step templates: variables (`{{first_name}}`, `{{custom.plan}}`, `{{first_name | "there"}}`) and a
// small Markdown-ish body (paragraphs, line breaks, **bold**, *italic*, [links](https://…), "- " lists),
// rendered to a text part and an HTML part. Everything is escaped before markup is added, and values
// are put in after the markup, so neither the template nor a lead's data can inject HTML or links.
import { escapeHtml } from '../../http/page.ts';
import { LEAD_VARIABLE_COLUMNS, type LeadVariableColumn, type RequiredVariables } from './sequence-enrollments-data.ts';

export interface Variable {
  name: string;
  fallback: string | null;
}

const VARIABLE = /\{\{\s*([A-Za-z0-9_.]+)\s*(?:\|\s*"([^"\\{}]*)"\s*)?\}\}/g;
const CUSTOM = /^custom\.([A-Za-z0-9_]{1,64})$/;
const STRAY = /\{\{|\}\}/;

export interface TemplateProblem {
  message: string;
}

/** The variables a template uses, or what is wrong with it (unknown names, unclosed braces). */
export function parseVariables(template: string): { variables: Variable[]; problems: TemplateProblem[] } {
  const variables: Variable[] = [];
  const problems: TemplateProblem[] = [];
  for (const match of template.matchAll(VARIABLE)) {
    const [, name, fallback] = match;
    if (!(LEAD_VARIABLE_COLUMNS as readonly string[]).includes(name) && !CUSTOM.test(name)) {
      problems.push({
        message: `Unknown variable {{${name}}}: use one of ${LEAD_VARIABLE_COLUMNS.join(', ')} or custom.<field>.`,
      });
    }
    variables.push({ name, fallback: fallback ?? null });
  }
  if (STRAY.test(template.replace(VARIABLE, '')))
    problems.push({
      message: 'A "{{" or "}}" is not part of a variable such as {{first_name}} or {{first_name | "there"}}.',
    });
  return { variables, problems };
}

/** The variables without a fallback across templates: a lead lacking one cannot be sent that template. */
export function requiredVariables(templates: string[]): RequiredVariables {
  const columns = new Set<LeadVariableColumn>();
  const custom = new Set<string>();
  for (const template of templates) {
    for (const v of parseVariables(template).variables) {
      if (v.fallback !== null) continue;
      const c = CUSTOM.exec(v.name);
      if (c) custom.add(c[1]);
      else columns.add(v.name as LeadVariableColumn);
    }
  }
  return { columns: [...columns].sort(), custom: [...custom].sort() };
}

/** A lead's value for a variable name, as text; empty when it has none. */
export function variableValue(lead: Record<string, unknown>, name: string): string {
  const c = CUSTOM.exec(name);
  const raw = c ? (lead.custom_fields as Record<string, unknown> | null | undefined)?.[c[1]] : lead[name];
  if (raw === null || raw === undefined) return '';
  return String(raw).trim();
}

interface Filled {
  /** The template with each variable replaced by a private-use placeholder. */
  skeleton: string;
  values: string[];
  unresolved: string[];
}

function fill(template: string, lead: Record<string, unknown>): Filled {
  const values: string[] = [];
  const unresolved: string[] = [];
  const skeleton = template.replace(VARIABLE, (_m, name: string, fallback: string | undefined) => {
    let value = variableValue(lead, name);
    if (!value) {
      if (fallback === undefined) unresolved.push(name);
      value = fallback ?? '';
    }
    values.push(value);
    return `\uE000${values.length - 1}\uE001`;
  });
  return { skeleton, values, unresolved: [...new Set(unresolved)] };
}

const PLACEHOLDER = /\uE000(\d+)\uE001/g;
const put = (s: string, values: string[], encode: (v: string) => string) =>
  s.replace(PLACEHOLDER, (_m, i: string) => encode(values[Number(i)]));

const LINK = /\[([^\]\n]+)\]\(((?:https?:\/\/|mailto:)[^\s)]+)\)/g;

function inlineHtml(escaped: string): string {
  return escaped
    .replace(LINK, (_m, text: string, url: string) => `<a href="${url}">${text}</a>`)
    .replace(/\*\*([^*\n]+)\*\*/g, '<strong>$1</strong>')
    .replace(/(^|[^*])\*([^*\n]+)\*(?!\*)/g, '$1<em>$2</em>');
}

function inlineText(text: string): string {
  return text
    .replace(LINK, (_m, label: string, url: string) => (label === url ? url : `${label} (${url})`))
    .replace(/\*\*([^*\n]+)\*\*/g, '$1')
    .replace(/(^|[^*])\*([^*\n]+)\*(?!\*)/g, '$1$2');
}

const isList = (lines: string[]) => lines.every((l) => /^\s*[-*]\s+/.test(l));

function bodyHtml(skeleton: string): string {
  const blocks = skeleton
    .replace(/\r\n?/g, '\n')
    .split(/\n\s*\n/)
    .map((b) => b.split('\n').filter((l) => l.trim() !== ''))
    .filter((b) => b.length);
  return blocks
    .map((lines) => {
      if (isList(lines))
        return `<ul>${lines.map((l) => `<li>${inlineHtml(escapeHtml(l.replace(/^\s*[-*]\s+/, '')))}</li>`).join('')}</ul>`;
      return `<p>${lines.map((l) => inlineHtml(escapeHtml(l.trim()))).join('<br>\n')}</p>`;
    })
    .join('\n');
}

function bodyText(skeleton: string): string {
  return skeleton
    .replace(/\r\n?/g, '\n')
    .split('\n')
    .map((l) => inlineText(l.trimEnd()))
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

export interface Footer {
  postalAddress: string;
  unsubscribeUrl: string;
}

export interface RenderedMessage {
  subject: string;
  text: string;
  html: string;
  unresolved: string[];
}

/** One step for one lead: subject, text and HTML parts, each ending with the footer. */
export function renderStep(
  step: { subject: string; body: string },
  lead: Record<string, unknown>,
  footer: Footer,
): RenderedMessage {
  const subject = fill(step.subject, lead);
  const body = fill(step.body, lead);
  const text = `${put(bodyText(body.skeleton), body.values, (v) => v)}\n\n--\n${footer.postalAddress}\nUnsubscribe: ${footer.unsubscribeUrl}\n`;
  const html = `<!doctype html><html><body>\n${put(bodyHtml(body.skeleton), body.values, escapeHtml)}\n<hr>\n<p style="font-size:12px;color:#666">${escapeHtml(footer.postalAddress).replace(/\n/g, '<br>')}<br><a href="${escapeHtml(footer.unsubscribeUrl)}">Unsubscribe</a></p>\n</body></html>\n`;
  return {
    subject: put(subject.skeleton, subject.values, (v) => v)
      .replace(/[\r\n]+/g, ' ')
      .trim(),
    text,
    html,
    unresolved: [...new Set([...subject.unresolved, ...body.unresolved])],
  };
}
