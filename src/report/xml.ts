// A small, non-validating XML reader: enough for JUnit reports. It returns an
// element tree and never resolves external entities.

export interface XmlElement {
  name: string;
  attrs: Record<string, string>;
  children: XmlElement[];
  text: string;
}

const ENTITIES: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };

export function decodeEntities(s: string): string {
  return s.replace(/&(#x[0-9a-fA-F]+|#\d+|\w+);/g, (m, e: string) => {
    if (e.startsWith('#x')) return String.fromCodePoint(parseInt(e.slice(2), 16));
    if (e.startsWith('#')) return String.fromCodePoint(parseInt(e.slice(1), 10));
    return ENTITIES[e] ?? m;
  });
}

const ATTR = /([^\s=/>]+)\s*=\s*("([^"]*)"|'([^']*)')/g;

export function parseXml(xml: string): XmlElement {
  const root: XmlElement = { name: '#document', attrs: {}, children: [], text: '' };
  const stack: XmlElement[] = [root];
  let i = 0;
  while (i < xml.length) {
    const lt = xml.indexOf('<', i);
    const top = stack[stack.length - 1]!;
    if (lt === -1) {
      top.text += decodeEntities(xml.slice(i));
      break;
    }
    if (lt > i) top.text += decodeEntities(xml.slice(i, lt));
    if (xml.startsWith('<!--', lt)) {
      i = end(xml, '-->', lt);
    } else if (xml.startsWith('<![CDATA[', lt)) {
      const close = xml.indexOf(']]>', lt);
      if (close === -1) throw new Error('unterminated CDATA section');
      top.text += xml.slice(lt + 9, close);
      i = close + 3;
    } else if (xml.startsWith('<?', lt)) {
      i = end(xml, '?>', lt);
    } else if (xml.startsWith('<!', lt)) {
      i = end(xml, '>', lt);
    } else if (xml.startsWith('</', lt)) {
      const close = end(xml, '>', lt);
      const name = xml.slice(lt + 2, close - 1).trim();
      if (top.name !== name) throw new Error(`mismatched closing tag </${name}> for <${top.name}>`);
      stack.pop();
      i = close;
    } else {
      const close = tagEnd(xml, lt);
      let body = xml.slice(lt + 1, close - 1);
      const selfClosing = body.endsWith('/');
      if (selfClosing) body = body.slice(0, -1);
      const nameMatch = /^[^\s/>]+/.exec(body);
      if (!nameMatch) throw new Error(`malformed tag at offset ${lt}`);
      const el: XmlElement = { name: nameMatch[0], attrs: {}, children: [], text: '' };
      for (const m of body.slice(nameMatch[0].length).matchAll(ATTR)) {
        el.attrs[m[1]!] = decodeEntities(m[3] ?? m[4] ?? '');
      }
      top.children.push(el);
      if (!selfClosing) stack.push(el);
      i = close;
    }
  }
  if (stack.length !== 1) throw new Error(`unclosed element <${stack[stack.length - 1]!.name}>`);
  return root;
}

function end(xml: string, marker: string, from: number): number {
  const at = xml.indexOf(marker, from);
  if (at === -1) throw new Error(`unterminated markup at offset ${from}`);
  return at + marker.length;
}

/** End of a start tag, skipping '>' inside quoted attribute values. */
function tagEnd(xml: string, from: number): number {
  let quote = '';
  for (let j = from + 1; j < xml.length; j++) {
    const c = xml[j];
    if (quote) {
      if (c === quote) quote = '';
    } else if (c === '"' || c === "'") quote = c;
    else if (c === '>') return j + 1;
  }
  throw new Error(`unterminated tag at offset ${from}`);
}

export function* walk(el: XmlElement): Generator<XmlElement> {
  yield el;
  for (const child of el.children) yield* walk(child);
}
