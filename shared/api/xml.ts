/**
 * `output=xml`: the envelope as `<response><code/><data/><message/></response>`.
 * Arrays become repeated `<item>` elements; null is an empty element.
 */
export function toXml(envelope: Record<string, unknown>): string {
  return `<?xml version="1.0" encoding="UTF-8"?>\n<response>${children(envelope)}</response>`;
}

function element(name: string, value: unknown): string {
  const tag = /^[A-Za-z_][\w.-]*$/.test(name) ? name : 'item';
  return `<${tag}>${content(value)}</${tag}>`;
}

function content(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (Array.isArray(value)) return value.map((item) => element('item', item)).join('');
  if (typeof value === 'object') return children(value as Record<string, unknown>);
  return escape(String(value));
}

function children(record: Record<string, unknown>): string {
  return Object.entries(record)
    .map(([name, value]) => element(name, value))
    .join('');
}

function escape(text: string): string {
  return text.replace(/[<>&'"]/g, (c) => `&#${c.charCodeAt(0)};`).replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/g, '');
}
