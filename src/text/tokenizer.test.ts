import { describe, expect, it } from 'vitest';
import { anchorTokens, pageTokens, tokenize, urlTokens } from './tokenizer.js';

describe('tokenize', () => {
  it('lowercases, drops punctuation, digits and stopwords', () => {
    expect(tokenize('The 3 Quick-Brown foxes, in 2020!')).toEqual(['quick', 'brown', 'foxes']);
  });
  it('keeps stopwords when asked', () => {
    expect(tokenize('The fox and the dog', { keepStopwords: true })).toEqual([
      'the',
      'fox',
      'and',
      'the',
      'dog',
    ]);
  });
  it('splits contractions into a word and a dropped fragment', () => {
    expect(tokenize("Don't stop")).toEqual(['stop']);
  });
  it('keeps letters of other scripts and accents', () => {
    expect(tokenize('Café über')).toEqual(['café', 'über']);
  });
  it('treats letters outside the Basic Multilingual Plane as letters, and emoji and digits as separators', () => {
    expect(tokenize('ΑΒΓ ab\u{1F600}cd x1y \u{1D400}\u{1D401}c')).toEqual([
      'αβγ',
      'ab',
      'cd',
      '\u{1D400}\u{1D401}c',
    ]);
  });
  it('drops a lone surrogate as a separator', () => {
    expect(tokenize('ab\uD800cd \uDC00ef')).toEqual(['ab', 'cd', 'ef']);
  });
  it('gives [] for empty or symbol-only text', () => {
    expect(tokenize('')).toEqual([]);
    expect(tokenize('12 34 !!! a')).toEqual([]);
  });
});

describe('url and anchor tokens', () => {
  it('drops scheme, www, common TLDs and file suffixes from URLs', () => {
    expect(urlTokens('https://www.ice-hockey.org/news/2020/index.html')).toEqual(['ice', 'hockey', 'news']);
  });
  it('puts anchor text before URL words', () => {
    expect(anchorTokens('Latest scores', 'http://nhl.com/scores')).toEqual([
      'latest',
      'scores',
      'nhl',
      'scores',
    ]);
  });
  it('puts the title before the page text', () => {
    expect(pageTokens('Hockey', 'news of today')).toEqual(['hockey', 'news', 'today']);
    expect(pageTokens('', 'news')).toEqual(['news']);
  });
});
