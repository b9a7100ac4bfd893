import { SaxesParser } from 'saxes';

/** One element of a parsed answer: its name, attributes, text and child elements. */
export interface XmlElement {
  name: string;
  attributes: Record<string, string>;
  text: string;
  children: XmlElement[];
}

/**
 * Parses an `output=xml` answer with saxes, a strict XML 1.0 parser. `errors` lists every
 * well-formedness error it reported (none for an answer any XML parser accepts).
 */
export function parseXml(xml: string): { errors: string[]; root: XmlElement | undefined } {
  const errors: string[] = [];
  const open: XmlElement[] = [];
  let root: XmlElement | undefined;
  const parser = new SaxesParser({ xmlns: false });
  parser.on('error', (error) => errors.push(error.message));
  parser.on('opentag', (tag) => {
    const element: XmlElement = { name: tag.name, attributes: { ...(tag.attributes as Record<string, string>) }, text: '', children: [] };
    const parent = open.at(-1);
    if (parent) parent.children.push(element);
    else root = element;
    open.push(element);
  });
  parser.on('text', (text) => {
    const current = open.at(-1);
    if (current) current.text += text;
  });
  parser.on('closetag', () => open.pop());
  parser.write(xml).close();
  return { errors, root };
}

/** The child element reached by following `names` from `element`. */
export function child(element: XmlElement | undefined, ...names: string[]): XmlElement | undefined {
  return names.reduce<XmlElement | undefined>((at, name) => at?.children.find((candidate) => candidate.name === name), element);
}
