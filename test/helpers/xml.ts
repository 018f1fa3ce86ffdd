/**
 * A small XML 1.0 reader for the tests (the feeds): it throws on anything not well-formed (an unclosed
 * or mismatched element, an unquoted or repeated attribute, a bare `<` or `&`, an unknown entity, a
 * character XML cannot hold, more than one root) and gives the element tree with text and attributes
 * decoded. Namespaces are left as prefixes; no DTD.
 */
import { isXmlCharacter } from '../../src/platform/text/escape-xml.ts';
export interface XmlElement {
  name: string;
  attributes: Record<string, string>;
  children: XmlElement[];
  /** The element's own text (its children's excluded), decoded. */
  text: string;
}

const namePattern = /^[A-Za-z_][\w.:-]*/;
const entities: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

function decode(raw: string, at: number): string {
  if (raw.includes('<')) throw new Error(`a bare < near ${at}`);
  return raw.replace(/&([^;]*);?/g, (whole, body: string) => {
    if (!whole.endsWith(';')) throw new Error(`a bare & near ${at}`);
    if (body.startsWith('#x')) return String.fromCodePoint(Number.parseInt(body.slice(2), 16));
    if (body.startsWith('#')) return String.fromCodePoint(Number.parseInt(body.slice(1), 10));
    const value = entities[body];
    if (value === undefined) throw new Error(`unknown entity &${body}; near ${at}`);
    return value;
  });
}

export function parseXml(source: string): XmlElement {
  if (!Array.from(source).every((character) => isXmlCharacter(character.codePointAt(0) ?? 0)))
    throw new Error('a character XML 1.0 cannot hold');
  let at = 0;
  const skipSpace = () => {
    while (at < source.length && /\s/.test(source.charAt(at))) at += 1;
  };
  const skipMisc = () => {
    for (;;) {
      skipSpace();
      if (source.startsWith('<?', at)) {
        const end = source.indexOf('?>', at);
        if (end < 0) throw new Error('an unclosed processing instruction');
        at = end + 2;
      } else if (source.startsWith('<!--', at)) {
        const end = source.indexOf('-->', at);
        if (end < 0) throw new Error('an unclosed comment');
        at = end + 3;
      } else return;
    }
  };
  const readName = () => {
    const match = namePattern.exec(source.slice(at));
    if (match === null) throw new Error(`a name expected at ${at}`);
    at += match[0].length;
    return match[0];
  };
  const readElement = (): XmlElement => {
    if (source.charAt(at) !== '<') throw new Error(`an element expected at ${at}`);
    at += 1;
    const element: XmlElement = { name: readName(), attributes: {}, children: [], text: '' };
    for (;;) {
      skipSpace();
      if (source.startsWith('/>', at)) {
        at += 2;
        return element;
      }
      if (source.charAt(at) === '>') {
        at += 1;
        break;
      }
      const attribute = readName();
      skipSpace();
      if (source.charAt(at) !== '=') throw new Error(`= expected after ${attribute} at ${at}`);
      at += 1;
      skipSpace();
      const quote = source.charAt(at);
      if (quote !== '"' && quote !== "'") throw new Error(`an unquoted attribute ${attribute} at ${at}`);
      const end = source.indexOf(quote, at + 1);
      if (end < 0) throw new Error(`an unclosed attribute ${attribute}`);
      if (attribute in element.attributes) throw new Error(`attribute ${attribute} repeated`);
      element.attributes[attribute] = decode(source.slice(at + 1, end), at);
      at = end + 1;
    }
    for (;;) {
      const next = source.indexOf('<', at);
      if (next < 0) throw new Error(`element ${element.name} not closed`);
      element.text += decode(source.slice(at, next), at);
      at = next;
      if (source.startsWith('</', at)) {
        at += 2;
        const name = readName();
        if (name !== element.name) throw new Error(`</${name}> closes <${element.name}>`);
        skipSpace();
        if (source.charAt(at) !== '>') throw new Error(`> expected at ${at}`);
        at += 1;
        return element;
      }
      if (source.startsWith('<!--', at)) {
        const end = source.indexOf('-->', at);
        if (end < 0) throw new Error('an unclosed comment');
        at = end + 3;
      } else if (source.startsWith('<![CDATA[', at)) {
        const end = source.indexOf(']]>', at);
        if (end < 0) throw new Error('an unclosed CDATA section');
        element.text += source.slice(at + 9, end);
        at = end + 3;
      } else element.children.push(readElement());
    }
  };
  skipMisc();
  const root = readElement();
  skipMisc();
  if (at !== source.length) throw new Error(`content after the root element at ${at}`);
  return root;
}

/** The children of an element by name, and the one child of a name (throws when there is not exactly one). */
export const childrenNamed = (element: XmlElement, name: string) =>
  element.children.filter((child) => child.name === name);
export function onlyChild(element: XmlElement, name: string): XmlElement {
  const found = childrenNamed(element, name);
  if (found.length !== 1 || found[0] === undefined) throw new Error(`${found.length} <${name}> in <${element.name}>`);
  return found[0];
}
