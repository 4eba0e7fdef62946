import fc from 'fast-check';
import { Parser } from 'htmlparser2';
import { htmlDocument } from 'tres-testing';
import { describe, expect, it } from 'vitest';
import { createRng } from '../common/index.js';
import { LinearParser, type LinearParserHandler } from './linear-parser.js';
import { generatePage } from './parse-html.bench.js';

/** Every event as a string; consecutive text events merged (chunking may split a text node). */
function recorder(): { handler: LinearParserHandler; events: string[] } {
  const events: string[] = [];
  const handler: LinearParserHandler = {
    ontext(data) {
      const last = events.length - 1;
      if (last >= 0 && events[last]?.startsWith('text:')) events[last] += data;
      else events.push(`text:${data}`);
    },
    onopentag(name, attribs, isImplied) {
      events.push(`open:${name}:${JSON.stringify(attribs)}:${isImplied}`);
    },
    onclosetag(name, isImplied) {
      events.push(`close:${name}:${isImplied}`);
    },
    onend() {
      events.push('end');
    },
  };
  return { handler, events };
}

function htmlparser2Events(html: string): string[] {
  const { handler, events } = recorder();
  new Parser(handler, { decodeEntities: true }).end(html);
  return events;
}

/** Events of LinearParser with the page written in chunks that end at `cuts`. */
function linearEvents(html: string, cuts: number[] = []): string[] {
  const { handler, events } = recorder();
  const parser = new LinearParser(handler, html);
  let from = 0;
  for (const cut of [...cuts].sort((a, b) => a - b)) {
    const to = Math.min(cut, html.length);
    if (to > from) parser.write(html.slice(from, to));
    from = Math.max(from, to);
  }
  if (from < html.length) parser.write(html.slice(from));
  parser.end();
  return events;
}

describe('LinearParser', () => {
  it('gives the same events as htmlparser2 on a generated documentation page', () => {
    const page = generatePage(createRng('linear-parser'), 20_000);
    expect(linearEvents(page)).toEqual(htmlparser2Events(page));
    expect(linearEvents(page, [1, 17, 999, 5_000, 12_345])).toEqual(htmlparser2Events(page));
  });

  it('gives the same events as htmlparser2 on broken markup, whole or in chunks', () => {
    const cases = [
      '<p><a href="/a">one</p><p>two</p>',
      '</a></div><a href="/a">x</a></a></p>',
      '<table><tr><td>a<td>b<tr><td>c</table>',
      '<svg><title>t</title><a/><path/></svg><a/>after',
      '<select><option>a<option>b</select><input><button>x',
      '<dl><dt>a<dd>b<dt>c</dl><ul><li>1<li>2</ul></br></p>',
      '<script>var a = "</scr" + "ipt>";</script><title>x &amp; y</title>',
      '<a href="x" HREF="y" Title=\'q\' x=&#65;&amp;>t</A>',
    ];
    for (const html of cases) {
      expect(linearEvents(html), html).toEqual(htmlparser2Events(html));
      expect(linearEvents(html, [3, 7, 11]), html).toEqual(htmlparser2Events(html));
    }
  });

  it('gives the same events as htmlparser2 on random markup split at random places', () => {
    fc.assert(
      fc.property(htmlDocument(80), fc.array(fc.nat(400), { maxLength: 6 }), (html, cuts) => {
        expect(linearEvents(html, cuts)).toEqual(htmlparser2Events(html));
      }),
      { seed: 10, numRuns: 400 },
    );
  });

  it('stores only the wanted attributes when given a list', () => {
    const { handler, events } = recorder();
    const html = '<a href="/a" title="t" rel=x>';
    const parser = new LinearParser(handler, html, new Set(['href', 'rel']));
    parser.write(html);
    parser.end();
    expect(events[0]).toBe('open:a:{"href":"/a","rel":"x"}:false');
  });
});
