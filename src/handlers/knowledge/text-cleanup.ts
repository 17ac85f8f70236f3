// Text as extraction keeps it: line endings and control characters cleaned, whitespace collapsed.
export function cleanText(text: string): string {
  return text
    .replace(/^\uFEFF/, '')
    .replace(/\r\n?/g, '\n')
    .replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/g, '');
}

export function normalizeSpace(text: string): string {
  return text
    .replace(/[\u200B-\u200D\u2060\uFEFF\u00AD\u0000-\u0008\u000E-\u001F\u007F]/g, '')
    .replace(/\s+/g, ' ')
    .trim();
}
