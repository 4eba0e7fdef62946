/**
 * Test helpers of the crawl benchmark: a strict well-formedness check for the SVG it writes (no
 * XML parser is a dependency), and a small synthetic-web topic file.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

const ENTITY = /&(?!(?:amp|lt|gt|quot|apos|#\d+|#x[0-9a-fA-F]+);)/;
const ATTRS = /^(?:\s+[A-Za-z_:][\w:.-]*="[^"<]*")*\s*$/;

/**
 * Problems that make `text` not well-formed XML (unbalanced or crossed tags, unquoted
 * attributes, a bare `&` or `<`, not exactly one root element); [] when it is well-formed.
 * Comments, CDATA and DOCTYPE are reported as unsupported: the charts never write them.
 */
export function xmlProblems(text: string): string[] {
  const problems: string[] = [];
  const body = text.replace(/^\s*<\?xml[^?]*\?>/, '');
  const stack: string[] = [];
  let roots = 0;
  let at = 0;
  for (const m of body.matchAll(/<([^>]*)>/g)) {
    const between = body.slice(at, m.index);
    at = m.index + m[0].length;
    if (between.includes('<')) problems.push(`bare '<' before offset ${m.index}`);
    if (ENTITY.test(between)) problems.push(`bare '&' in text before offset ${m.index}`);
    if (between.trim() && stack.length === 0)
      problems.push(`text outside the root element: ${between.trim().slice(0, 30)}`);
    const inner = m[1]!;
    if (/^[!?]/.test(inner)) {
      problems.push(`unsupported markup <${inner.slice(0, 20)}>`);
      continue;
    }
    const close = /^\/([A-Za-z_][\w:.-]*)\s*$/.exec(inner);
    if (close) {
      const open = stack.pop();
      if (open !== close[1]) problems.push(`</${close[1]}> closes <${open ?? 'nothing'}>`);
      continue;
    }
    const tag = /^([A-Za-z_][\w:.-]*)([\s\S]*?)(\/?)$/.exec(inner);
    if (!tag) {
      problems.push(`malformed tag <${inner.slice(0, 30)}>`);
      continue;
    }
    if (!ATTRS.test(tag[2]!)) problems.push(`malformed attributes in <${tag[1]}${tag[2]!.slice(0, 40)}>`);
    if (ENTITY.test(tag[2]!)) problems.push(`bare '&' in an attribute of <${tag[1]}>`);
    if (stack.length === 0) roots++;
    if (tag[3] !== '/') stack.push(tag[1]!);
  }
  if (body.slice(at).trim()) problems.push('text after the root element');
  if (stack.length > 0) problems.push(`unclosed: ${stack.join(' > ')}`);
  if (roots !== 1) problems.push(`${roots} root elements`);
  return problems;
}

/** Writes a topic file for a small synthetic web (about `pageCount` pages) into `dir`; returns its path. */
export function writeSyntheticTopic(dir: string, name = 'synthetic-astronomy', pageCount = 1500): string {
  const file = join(dir, `${name}.yaml`);
  writeFileSync(
    file,
    `name: ${name}
web:
  synthetic:
    seed: 11
    hostCount: 30
    pageCount: ${pageCount}
    topics: [astronomy telescopes, cooking recipes, football league]
    relevantTopic: astronomy telescopes
`,
  );
  return file;
}
