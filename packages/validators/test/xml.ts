/**
 * A strict XML 1.0 well-formedness check for the JUnit report: no parser that rejects malformed XML
 * is installed in this repository (parse5 is an HTML parser and repairs what it reads), so the tests
 * carry this one. It covers what the report can contain: a declaration, elements with quoted
 * attributes, character data and references; no DTD, comments, CDATA or processing instructions
 * after the declaration.
 */

/** XML 1.0 Char: tab, LF, CR, U+0020-U+D7FF, U+E000-U+FFFD, U+10000-U+10FFFF. */
const isXmlChar = (cp: number): boolean =>
  cp === 0x9 || cp === 0xa || cp === 0xd || (cp >= 0x20 && cp <= 0xd7ff) || (cp >= 0xe000 && cp <= 0xfffd) || (cp >= 0x10000 && cp <= 0x10ffff);

const NAME = /^[A-Za-z_:][-A-Za-z0-9_:.]*/;

/** Why `text` is not well-formed XML 1.0, or undefined when it is. */
export function xmlProblem(text: string): string | undefined {
  for (let i = 0; i < text.length; i++) {
    const cp = text.codePointAt(i)!;
    // codePointAt answers a lone surrogate as itself, which isXmlChar rejects.
    if (!isXmlChar(cp)) return `character U+${cp.toString(16).padStart(4, '0')} at ${i} is not allowed in XML 1.0`;
    if (cp > 0xffff) i++;
  }
  const references = (s: string, where: string): string | undefined => {
    for (const m of s.matchAll(/&([^;]*);?/g)) {
      const body = m[1]!;
      if (!m[0].endsWith(';')) return `unterminated reference in ${where}`;
      if (['lt', 'gt', 'amp', 'quot', 'apos'].includes(body)) continue;
      const num = /^#x([0-9a-fA-F]+)$/.exec(body) ?? /^#([0-9]+)$/.exec(body);
      if (!num) return `bad reference &${body}; in ${where}`;
      const cp = parseInt(num[1]!, body.startsWith('#x') ? 16 : 10);
      if (!isXmlChar(cp)) return `reference &${body}; names a character XML 1.0 does not allow (in ${where})`;
    }
    return undefined;
  };

  let rest = text;
  const decl = /^<\?xml\s+version="1\.0"(\s+encoding="[A-Za-z0-9._-]+")?\s*\?>/.exec(rest);
  if (!decl) return 'no XML declaration';
  rest = rest.slice(decl[0].length);
  const stack: string[] = [];
  let roots = 0;
  while (rest.length > 0) {
    const lt = rest.indexOf('<');
    const chars = lt === -1 ? rest : rest.slice(0, lt);
    if (chars.includes(']]>')) return 'character data holds "]]>"';
    const bad = references(chars, 'character data');
    if (bad) return bad;
    if (stack.length === 0 && chars.trim() !== '') return 'character data outside the root element';
    if (lt === -1) break;
    rest = rest.slice(lt);
    if (rest.startsWith('</')) {
      const name = NAME.exec(rest.slice(2))?.[0];
      if (!name) return 'end tag without a name';
      const after = rest.slice(2 + name.length);
      const close = /^\s*>/.exec(after);
      if (!close) return `malformed end tag </${name}`;
      if (stack.pop() !== name) return `end tag </${name}> does not close the open element`;
      rest = after.slice(close[0].length);
      continue;
    }
    const name = NAME.exec(rest.slice(1))?.[0];
    if (!name) return `"<" that starts no tag: ${JSON.stringify(rest.slice(0, 20))}`;
    rest = rest.slice(1 + name.length);
    const seen = new Set<string>();
    for (;;) {
      const end = /^\s*(\/?)>/.exec(rest);
      if (end) {
        rest = rest.slice(end[0].length);
        if (stack.length === 0) roots++;
        if (roots > 1) return 'more than one root element';
        if (end[1] !== '/') stack.push(name);
        break;
      }
      const attr = /^\s+([A-Za-z_:][-A-Za-z0-9_:.]*)\s*=\s*("([^"<]*)"|'([^'<]*)')/.exec(rest);
      if (!attr) return `malformed attribute in <${name}>: ${JSON.stringify(rest.slice(0, 30))}`;
      if (seen.has(attr[1]!)) return `attribute ${attr[1]} twice in <${name}>`;
      seen.add(attr[1]!);
      const bad = references(attr[3] ?? attr[4] ?? '', `attribute ${attr[1]}`);
      if (bad) return bad;
      rest = rest.slice(attr[0].length);
    }
  }
  if (stack.length > 0) return `unclosed element <${stack.at(-1)}>`;
  if (roots !== 1) return 'no root element';
  return undefined;
}
