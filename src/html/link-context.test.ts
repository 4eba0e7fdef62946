import { describe, expect, it } from 'vitest';
import { CONTEXT_TOKENS_PER_LEAF, LinkContextRecorder, tokenizeInto } from './link-context.js';
import { parseHtml } from './parse-html.js';
import type { ParsedLink } from './types.js';

/** "token:offset" pairs of a link's context, for readable expectations. */
function pairs(link: ParsedLink | undefined): string[] {
  const context = link?.context;
  if (context === undefined) throw new Error('no context');
  return context.tokens.map((token, i) => `${token}:${context.offsets[i]}`);
}

// Leaves in document order (whitespace-only text is not a leaf):
// 0 "Tournament results"  1 "Chess "  2 "openings"  3 "Endgames"  4 <br>  5 " for beginners"
// 6 "More "  7 "links"  8 " below"
const PAGE_HTML = `
<div>
  <p>Tournament results</p>
  <ul>
    <li><a href="/a">Chess <em>openings</em></a></li>
    <li><a href="/b">Endgames</a> <br> for beginners</li>
  </ul>
  <p>More <b>links</b> below</p>
</div>`;

describe('link context (DOM offsets of Chakrabarti et al. 2002)', () => {
  it('gives offset 0 inside the anchor and leaf distances around it, up to dMax = 5', () => {
    const [a, b] = parseHtml(PAGE_HTML, 'http://x.org/', { withContext: true }).links;
    // Anchor /a spans leaves 1..2: leaf 0 is at -1, leaf m > 2 at m - 2; leaf 8 is past dMax.
    expect(pairs(a)).toEqual([
      'tournament:-1',
      'results:-1',
      'chess:0',
      'openings:0',
      'endgames:1',
      'for:3',
      'beginners:3',
      'more:4',
      'links:5',
    ]);
    // Anchor /b is leaf 3; the <br> (leaf 4) has no text but still counts.
    expect(pairs(b)).toEqual([
      'tournament:-3',
      'results:-3',
      'chess:-2',
      'openings:-1',
      'endgames:0',
      'for:2',
      'beginners:2',
      'more:3',
      'links:4',
      'below:5',
    ]);
  });

  it('stores offsets in an Int8Array of the same length as the tokens', () => {
    const context = parseHtml(PAGE_HTML, 'http://x.org/', { withContext: true }).links[0]?.context;
    expect(context?.offsets).toBeInstanceOf(Int8Array);
    expect(context?.offsets.length).toBe(context?.tokens.length);
  });

  it('honours a smaller contextDMax', () => {
    const links = parseHtml(PAGE_HTML, 'http://x.org/', { withContext: true, contextDMax: 1 }).links;
    expect(pairs(links[0])).toEqual(['tournament:-1', 'results:-1', 'chess:0', 'openings:0', 'endgames:1']);
    const anchorOnly = parseHtml(PAGE_HTML, 'http://x.org/', { withContext: true, contextDMax: 0 }).links;
    expect(pairs(anchorOnly[1])).toEqual(['endgames:0']);
  });

  it('keeps the words of each leaf nearest the anchor with a smaller contextWords', () => {
    const links = parseHtml(PAGE_HTML, 'http://x.org/', {
      withContext: true,
      contextDMax: 3,
      contextWords: 1,
    }).links;
    // Before the anchor the last word of a leaf, after it the first; the anchor keeps its words.
    expect(pairs(links[0])).toEqual(['results:-1', 'chess:0', 'openings:0', 'endgames:1', 'for:3']);
    expect(pairs(links[1])).toEqual([
      'results:-3',
      'chess:-2',
      'openings:-1',
      'endgames:0',
      'for:2',
      'more:3',
    ]);
  });

  it('counts empty elements as leaves (the <a><br><a> idiom gives even offsets)', () => {
    const links = parseHtml('<a href="/x">X</a><br><a href="/y">Y</a><br>', 'http://x.org/', {
      withContext: true,
    }).links;
    expect(pairs(links[0])).toEqual(['x:0', 'y:2']);
    expect(pairs(links[1])).toEqual(['x:-2', 'y:0']);
  });

  it('puts the alt text of an image inside the anchor at offset 0', () => {
    const links = parseHtml('<p>See</p><a href="/i"><img alt="Board diagram"></a>', 'http://x.org/', {
      withContext: true,
    }).links;
    expect(pairs(links[0])).toEqual(['see:-1', 'board:0', 'diagram:0']);
  });

  it('gives an empty anchor its own leaf, also when a nested anchor ends it', () => {
    const links = parseHtml('<p>a</p><a href="/1"><a href="/2">two</a><p>b</p>', 'http://x.org/', {
      withContext: true,
    }).links;
    expect(pairs(links[0])).toEqual(['a:-1', 'two:1', 'b:2']);
    expect(pairs(links[1])).toEqual(['a:-2', 'two:0', 'b:1']);
  });

  it('keeps script and title text out of the tokens but counts them as leaves', () => {
    const html = '<title>Title words</title><script>code()</script><a href="/1">go</a>';
    expect(pairs(parseHtml(html, 'http://x.org/', { withContext: true }).links[0])).toEqual(['go:0']);
    const html2 = '<p>near</p><script>code()</script><a href="/1">go</a>';
    expect(pairs(parseHtml(html2, 'http://x.org/', { withContext: true }).links[0])).toEqual([
      'near:-2',
      'go:0',
    ]);
  });

  it('keeps only the tokens of a long leaf nearest to the anchor', () => {
    const words = Array.from({ length: 100 }, (_, i) => `w${i}`);
    const html = `<p>${words.join(' ')}</p><a href="/1">go</a><p>${words.join(' ')}</p>`;
    const context = parseHtml(html, 'http://x.org/', { withContext: true }).links[0]?.context;
    const before = context?.tokens.slice(0, CONTEXT_TOKENS_PER_LEAF);
    const after = context?.tokens.slice(CONTEXT_TOKENS_PER_LEAF + 1);
    expect(before).toEqual(words.slice(100 - CONTEXT_TOKENS_PER_LEAF));
    expect(after).toEqual(words.slice(0, CONTEXT_TOKENS_PER_LEAF));
  });
});

describe('LinkContextRecorder', () => {
  it('numbers leaves and computes offsets from leaf numbers', () => {
    const recorder = new LinkContextRecorder();
    recorder.addLeaf('left');
    recorder.addLeaf('');
    recorder.addLeaf('in one');
    recorder.addLeaf('in two');
    recorder.addLeaf('right');
    expect(recorder.leafCount).toBe(5);
    const context = recorder.contextFor(2, 3, 5);
    expect(context.tokens).toEqual(['left', 'in', 'one', 'in', 'two', 'right']);
    expect(Array.from(context.offsets)).toEqual([-2, 0, 0, 0, 0, 1]);
  });

  it('tokenizes only the leaves within dMax of a link, in document order', () => {
    const recorder = new LinkContextRecorder();
    for (let m = 0; m < 20; m++) recorder.addLeaf(`word${m} more${m}`);
    const first = recorder.contextFor(3, 3, 2);
    const second = recorder.contextFor(5, 6, 2);
    expect(first.tokens).toEqual([
      'word1',
      'more1',
      'word2',
      'more2',
      'word3',
      'more3',
      'word4',
      'more4',
      'word5',
      'more5',
    ]);
    expect(second.tokens.slice(0, 2)).toEqual(['word3', 'more3']);
    expect(second.tokens.slice(-2)).toEqual(['word8', 'more8']);
    // Leaves 0 and 9-19 are within reach of neither link: their words were never tokenized.
    expect(second.source?.words).toBe(first.source?.words);
    expect(first.source?.words).toEqual([1, 2, 3, 4, 5, 6, 7, 8].flatMap((m) => [`word${m}`, `more${m}`]));
  });
});

describe('tokenizeInto', () => {
  it('appends lowercased [a-z0-9]+ words', () => {
    const out = ['kept'];
    tokenizeInto("Hello, World! C3PO's e-mail — Ünïcode", out);
    expect(out).toEqual(['kept', 'hello', 'world', 'c3po', 's', 'e', 'mail', 'n', 'code']);
  });
});

describe('a parsed link context builds its tokens on first read', () => {
  it('reads as a plain { tokens, offsets } would in JSON, keeps its source out of it, and is never assigned', () => {
    const [a] = parseHtml(PAGE_HTML, 'http://x.org/', { withContext: true }).links;
    const context = a?.context;
    if (context === undefined) throw new Error('no context');
    const source = context.source;
    if (source === undefined) throw new Error('no source');
    // The source alone: its spans over the page's words, as FieldWords and the outlinks codec read it.
    const fromSource: string[] = [];
    for (let s = 0; s < source.spans.length; s += 3)
      for (let i = source.spans[s] as number; i < (source.spans[s + 1] as number); i++)
        fromSource.push(source.words[i] as string);
    const plain = { tokens: [...context.tokens], offsets: Int8Array.from(context.offsets) };
    expect(plain.tokens).toEqual(fromSource);
    expect(plain.tokens).toEqual([
      'tournament',
      'results',
      'chess',
      'openings',
      'endgames',
      'for',
      'beginners',
      'more',
      'links',
    ]);
    expect(JSON.stringify(context)).toBe(JSON.stringify(plain));
    expect(JSON.stringify({ link: a })).not.toContain('"source"');
    // No own property: the accessors are the prototype's (spreads and clones copy nothing).
    expect(Object.keys(context)).toEqual([]);
    // Read twice, the same arrays; never assignable.
    expect(context.tokens).toBe(context.tokens);
    expect(context.offsets).toBe(context.offsets);
    expect(() => {
      (context as { tokens: string[] }).tokens = [];
    }).toThrow(TypeError);
  });
});
