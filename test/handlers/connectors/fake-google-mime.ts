// Gmail's payload (the parsed MIME tree users.messages.get answers with) for the fake's messages: headers as
// {name, value}, bodies as base64url `data`, a DSN as multipart/report with a message/delivery-status part.
export interface Header {
  name: string;
  value: string;
}

export interface Payload {
  partId: string;
  mimeType: string;
  filename: string;
  headers: Header[];
  body: { size: number; data?: string };
  parts?: Payload[];
}

const leaf = (partId: string, mimeType: string, text: string, headers: Header[] = []): Payload => {
  const data = Buffer.from(text, 'utf8');
  return {
    partId,
    mimeType,
    filename: '',
    headers: [...headers, { name: 'Content-Type', value: `${mimeType}; charset="UTF-8"` }],
    body: { size: data.length, data: data.toString('base64url') },
  };
};

const multipart = (mimeType: string, parts: Payload[], headers: Header[], contentType: string): Payload => ({
  partId: '',
  mimeType,
  filename: '',
  headers: [...headers, { name: 'Content-Type', value: contentType }],
  body: { size: 0 },
  parts,
});

/** A message's payload: its headers (From, To, Subject, Date and Message-ID made unless given) over its body. */
export function buildPayload(
  d: {
    to?: string;
    from?: string;
    subject?: string;
    headers?: Record<string, string>;
    text?: string;
    html?: string;
    deliveryStatus?: string;
  },
  at: number,
  given?: Header[],
): Payload {
  const headers: Header[] = given
    ? given.filter((h) => !/^content-type$/i.test(h.name))
    : [
        { name: 'From', value: d.from ?? '' },
        { name: 'To', value: d.to ?? '' },
        { name: 'Subject', value: d.subject ?? '' },
        { name: 'Date', value: new Date(at).toUTCString() },
        ...Object.entries(d.headers ?? {}).map(([name, value]) => ({ name, value })),
      ];
  if (!headers.some((h) => /^message-id$/i.test(h.name)))
    headers.push({ name: 'Message-ID', value: `<${at}.${Math.random().toString(36).slice(2)}@mail.fake.example>` });
  if (d.deliveryStatus !== undefined) {
    const status = `Reporting-MTA: dns; mx.fake.example\r\n\r\nFinal-Recipient: rfc822; ${d.to ?? ''}\r\nAction: failed\r\nStatus: ${d.deliveryStatus}\r\n`;
    return multipart(
      'multipart/report',
      [leaf('0', 'text/plain', d.text ?? 'Delivery has failed.'), leaf('1', 'message/delivery-status', status)],
      headers,
      'multipart/report; report-type=delivery-status; boundary="fake"',
    );
  }
  if (d.html !== undefined && d.text !== undefined)
    return multipart(
      'multipart/alternative',
      [leaf('0', 'text/plain', d.text), leaf('1', 'text/html', d.html)],
      headers,
      'multipart/alternative; boundary="fake"',
    );
  const single =
    d.html !== undefined ? leaf('', 'text/html', d.html, headers) : leaf('', 'text/plain', d.text ?? '', headers);
  return single;
}

/** A payload's top-level headers as a plain list (for tests that look at what was recorded). */
export const headerList = (payload: Payload | undefined): Header[] => payload?.headers ?? [];
