import { describe, expect, it } from 'vitest';
import { createRng } from '../../common/index.js';
import { parseHtml } from '../../html/index.js';
import { urlTokens } from '../../text/index.js';
import { LinkExamples } from './link-examples.js';
import { ACHE_FEATURE_SELECTION, FieldWords, selectFeatures } from './link-features.js';
import { linkProbability, trainLinkSvm } from './link-svm.js';

describe('ACHE link features, training sample and SVM', () => {
  it('encodes URL words, anchor words and the words around the link as separate fields', () => {
    const words = new FieldWords();
    const ids = words.encode({
      url: 'http://shop.test/disks/index.html',
      anchorText: 'Fast disks',
      context: { tokens: ['fast', 'disks', 'cheap', 'the'], offsets: Int8Array.from([0, 0, 1, -1]) },
    });
    const names = Array.from(ids, (id) => words.nameOf(id)).sort();
    expect(names).toEqual([
      'anchor:disks',
      'anchor:fast',
      'around:cheap',
      'url:disks',
      'url:shop',
      'url:test',
    ]);
  });

  it('gives the words around links the same ids whether they come from its cache of recent words or not', () => {
    // Three pages of 5,000 distinct context words each: the cache of recent words fills and is
    // emptied many times, and every word comes back on the next page.
    const words = new FieldWords();
    const page = Array.from({ length: 5000 }, (_, i) => (i % 7 === 0 ? 'the' : `w${i.toString(36)}x`));
    const link = (from: number) => ({
      url: '',
      anchorText: '',
      context: { tokens: page.slice(from, from + 10), offsets: new Int8Array(10).fill(1) },
    });
    const encoded: string[][] = [];
    for (let rep = 0; rep < 3; rep++)
      for (let from = 0; from < page.length; from += 5)
        encoded.push(Array.from(words.encode(link(from)), (id) => words.nameOf(id)));
    const direct = new FieldWords();
    for (let rep = 0; rep < 3; rep++)
      for (let from = 0; from < page.length; from += 5) {
        const ids = page
          .slice(from, from + 10)
          .filter((w) => w !== 'the')
          .map((w) => direct.idOf('around', w));
        expect(encoded.shift()).toEqual(ids.sort((x, y) => x - y).map((id) => direct.nameOf(id)));
      }
  });

  it("gives a parsed page's links the same ids through their contexts' page words as token by token", () => {
    // Links with overlapping contexts, one-letter words, stopwords and anchor words (offset 0).
    const paragraphs = Array.from(
      { length: 40 },
      (_, i) => `<p>the w${i % 9} a x${i} <a href="/p${i}">go w${i % 5} to</a> y${i % 3} and z${i}</p>`,
    );
    const pages = [0, 1].map(
      (n) =>
        parseHtml(`<html><body>${paragraphs.slice(n * 10).join('')}</body></html>`, 'http://a.test/', {
          withContext: true,
        }).links,
    );
    expect(pages[0]?.[0]?.context?.source).toBeDefined();
    const paged = new FieldWords();
    const plain = new FieldWords();
    for (const links of pages)
      for (const l of links) {
        const ctx = l.context as NonNullable<typeof l.context>;
        const fast = paged.encode({ url: l.url, anchorText: l.anchorText, context: ctx });
        const slow = plain.encode({
          url: l.url,
          anchorText: l.anchorText,
          context: { tokens: ctx.tokens, offsets: ctx.offsets },
        });
        expect(Array.from(fast, (id) => paged.nameOf(id))).toEqual(
          Array.from(slow, (id) => plain.nameOf(id)),
        );
        expect(fast).toEqual(slow);
      }
  });

  it('keeps the words of the nearest leaves and the nearest words of each leaf in a context window', () => {
    const html =
      '<p>alpha beta gamma</p><p>delta epsilon</p><a href="/x">go</a><p>zeta eta theta</p><p>iota kappa</p>';
    const [link] = parseHtml(`<html><body>${html}</body></html>`, 'http://a.test/', {
      withContext: true,
    }).links;
    const ctx = link?.context as NonNullable<NonNullable<typeof link>['context']>;
    const around = (words: FieldWords, ids: Int32Array) =>
      Array.from(ids, (id) => words.nameOf(id))
        .filter((name) => name.startsWith('around:'))
        .sort();
    const window = { leaves: 1, words: 2 };
    const paged = new FieldWords();
    const plain = new FieldWords();
    const fast = paged.encode({ url: '', anchorText: 'go', context: ctx }, true, window);
    const slow = plain.encode(
      { url: '', anchorText: 'go', context: { tokens: ctx.tokens, offsets: ctx.offsets } },
      true,
      window,
    );
    expect(around(paged, fast)).toEqual(['around:delta', 'around:epsilon', 'around:eta', 'around:zeta']);
    expect(around(plain, slow)).toEqual(around(paged, fast));
    // Two leaves a side, one word each: the last word before the link, the first after it.
    const narrow = new FieldWords();
    const one = narrow.encode({ url: '', anchorText: 'go', context: ctx }, true, { leaves: 2, words: 1 });
    expect(around(narrow, one)).toEqual(['around:epsilon', 'around:gamma', 'around:iota', 'around:zeta']);
    // The whole context without a window.
    const all = new FieldWords();
    expect(around(all, all.encode({ url: '', anchorText: 'go', context: ctx })).length).toBe(10);
  });

  it("gives a URL's words whether its origin's come from the cache of recent origins or not", () => {
    const words = new FieldWords();
    const urls = [
      'https://www.disk-shop.test/fast/disks.html',
      'https://www.disk-shop.test:8080/cheap?q=ssd#top',
      'https://www.disk-shop.test',
      'https://www.disk-shop.test?raid=yes',
      'https://www.disk-shop.test#arrays',
      'https://www.disk-shop.test/fast/disks.html',
      'mailto:sales@disk-shop.test',
    ];
    for (let rep = 0; rep < 2; rep++)
      for (const url of urls) {
        const names = Array.from(words.encode({ url, anchorText: '' }), (id) => words.nameOf(id));
        expect(names.sort(), url).toEqual([...new Set(urlTokens(url))].map((w) => `url:${w}`).sort());
      }
  });

  it('keeps per field the words seen in the most links, at least minCount times, ties by word', () => {
    const words = new FieldWords();
    const link = (anchorText: string) => words.encode({ url: 'http://a.test/', anchorText });
    const links = [link('gpu ram'), link('gpu ram cpu'), link('gpu cpu'), link('solo')];
    const columns = selectFeatures(words, links, { ...ACHE_FEATURE_SELECTION, anchor: 2, url: 0 });
    const chosen = [...columns.keys()].map((id) => words.nameOf(id));
    expect(chosen).toEqual(['anchor:gpu', 'anchor:cpu']); // gpu 3, then cpu and ram 2 each: cpu by word
  });

  it('samples an irrelevant link only while the negatives are fewer than the positives (ACHE)', () => {
    const examples = new LinkExamples();
    const labels = [0, 0, 1, 0, 1, 0, 0];
    labels.forEach((y, i) => {
      examples.add(Int32Array.of(i), y === 1);
    });
    const { links, labels: sampled } = examples.sample(10, createRng(1));
    expect(links.map((x) => x[0])).toEqual([2, 4, 3, 5]);
    expect(sampled).toEqual([1, 1, 0, 0]);
  });

  it('caps each class at its reservoir size', () => {
    const examples = new LinkExamples();
    for (let i = 0; i < 50; i++) examples.add(Int32Array.of(i), true);
    expect(examples.sample(10, createRng(1)).links).toHaveLength(10);
  });

  it('trains an SVM that scores links with the words of relevant targets above the others', () => {
    const words = new FieldWords();
    const rng = createRng(7);
    const links: Int32Array[] = [];
    const labels: number[] = [];
    for (let i = 0; i < 60; i++) {
      const isGood = i % 2 === 0;
      const noise = ['alpha', 'beta', 'gamma'][i % 3] as string;
      links.push(
        words.encode({ url: `http://s${i}.test/`, anchorText: `${isGood ? 'gpu' : 'recipe'} ${noise}` }),
      );
      labels.push(isGood ? 1 : 0);
    }
    const columns = selectFeatures(words, links, ACHE_FEATURE_SELECTION);
    const model = trainLinkSvm(links, labels, columns, rng);
    const good = words.encode({ url: 'http://new.test/', anchorText: 'gpu beta' });
    const bad = words.encode({ url: 'http://new.test/', anchorText: 'recipe beta' });
    expect(linkProbability(model, good)).toBeGreaterThan(0.8);
    expect(linkProbability(model, bad)).toBeLessThan(0.2);
    const again = trainLinkSvm(links, labels, columns, createRng(7));
    expect([...again.weights]).toEqual([...model.weights]);
  });
});
