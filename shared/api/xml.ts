/**
 * `output=xml`: the envelope as `<response><code/><data/><message/></response>`.
 * Arrays become repeated `<item>` elements; null is an empty element. The answer is
 * always well-formed XML 1.0, whatever the data holds (see text() and element()).
 */
export function toXml(envelope: Record<string, unknown>): string {
  return `<?xml version="1.0" encoding="UTF-8"?>\n<response>${children(envelope)}</response>`;
}

/** An ASCII name that is a valid XML element name. */
const ELEMENT_NAME = /^[A-Za-z_][\w.-]*$/;

/**
 * A key that cannot be an element name (keys can come from the request, e.g. the field
 * names of a validation error) becomes `<item name="…">`, so the name is still there.
 */
function element(name: string, value: unknown, isKey = true): string {
  if (!isKey || ELEMENT_NAME.test(name)) return `<${name}>${content(value)}</${name}>`;
  return `<item name="${text(name)}">${content(value)}</item>`;
}

function content(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (Array.isArray(value)) return value.map((item) => element('item', item, false)).join('');
  if (typeof value === 'object') return children(value as Record<string, unknown>);
  return text(String(value));
}

function children(record: Record<string, unknown>): string {
  return Object.entries(record)
    .map(([name, value]) => element(name, value))
    .join('');
}

/** Code points outside XML 1.0's Char production; with the u flag a lone surrogate is one. */
const NOT_XML_CHAR = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;

/**
 * Text for element content and attribute values. Characters XML 1.0 cannot carry at all
 * (most C0 controls, U+FFFE, U+FFFF, lone surrogates) become U+FFFD, as undecodable bytes
 * do on the way in; markup characters and the white space a parser would normalise
 * (CR anywhere, tab and LF in attributes) become character references.
 */
function text(value: string): string {
  return value.replace(NOT_XML_CHAR, '\uFFFD').replace(/[<>&'"\t\n\r]/g, (c) => `&#${c.charCodeAt(0)};`);
}
