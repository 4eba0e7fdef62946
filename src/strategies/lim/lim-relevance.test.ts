import { describe, expect, it } from 'vitest';
import { KeywordSet, WordVectors } from '../../text/index.js';
import { hasIrrelevantUrlFeature, isGibberish, LimRelevance } from './lim-relevance.js';

// Three-dimensional vectors: cos(laptop, computer) = 0.8, cos(guitar, computer) ~ 0.3.
const vectors = new WordVectors(
  ['computer', 'laptop', 'music', 'guitar'],
  3,
  new Float32Array([1, 0, 0, 0.8, 0.6, 0, 0, 1, 0, 0.3, 0.954, 0]),
);
const relevance = (withVectors: boolean) =>
  new LimRelevance({
    searchWords: new KeywordSet(['computer']),
    ...(withVectors ? { vectors } : {}),
    similarityThreshold: 2 / 3,
    maxUrlLength: 200,
  });

describe('LimRelevance', () => {
  it('averages over keywords the best similarity to a search word, zero below the threshold', () => {
    const r = relevance(true);
    expect(r.relevance([['laptop'], ['music']])).toBeCloseTo(0.4, 5);
    expect(r.relevance([['guitar']])).toBe(0);
  });
  it('leaves out keywords with no word vector, and averages the known words of a phrase', () => {
    const r = relevance(true);
    expect(r.relevance([['laptop'], ['zorbax']])).toBeCloseTo(0.8, 5);
    expect(r.relevance([['laptop', 'zorbax']])).toBeCloseTo(0.8, 5);
    expect(r.relevance([['zorbax']])).toBe(0);
  });
  it('scores a page from its RAKE keywords', () => {
    expect(relevance(true).pageRelevance('Laptop', 'the music of zorbax klemp')).toBeCloseTo(0.4, 5);
  });
  it('falls back to keyword matching without word vectors', () => {
    const r = relevance(false);
    expect(r.pageRelevance('', 'computer stuff. zorbax klemp')).toBe(1);
    expect(r.pageRelevance('', 'laptop stuff')).toBe(0);
  });
  it('scores a URL from its words without the top-level domain and URL noise words', () => {
    const r = relevance(false);
    expect(r.urlRelevance('http://computer-zorbax.test/p/1.html')).toBe(1);
    expect(relevance(true).urlRelevance('http://www.laptop.music.test/index.html')).toBeCloseTo(0.4, 5);
  });
  it('predicts an irrelevant page from the URL features of section 5.2.4', () => {
    const r = relevance(false);
    expect(r.urlRelevance('http://computer.test/search?q=computer')).toBe(0);
    expect(r.urlRelevance('http://computer.test/computer.png')).toBe(0);
    expect(r.urlRelevance('http://xkcdqzt.computer.test/')).toBe(0);
    expect(r.urlRelevance(`http://computer.test/${'a'.repeat(200)}`)).toBe(0);
    expect(hasIrrelevantUrlFeature('http://computer.test/a9f3c2e1b7/', 200)).toBe(true);
    expect(hasIrrelevantUrlFeature('http://debian.org/doc/x86/index.html', 200)).toBe(false);
  });
  it('calls five consonants in a row or a long letter-digit mix gibberish', () => {
    expect(isGibberish('xkcdqz')).toBe(true);
    expect(isGibberish('a9f3c2e1b7')).toBe(true);
    expect(isGibberish('debian')).toBe(false);
    expect(isGibberish('strength')).toBe(false);
  });
});
