import { describe, expect, it } from 'vitest';
import { rakeCandidates, rakeKeywords } from './rake.js';

describe('rakeKeywords', () => {
  it('scores the example of Rose et al. (2010) by degree / frequency, best first, ties by phrase', () => {
    const text = 'Compatibility of systems of linear constraints over the set of natural numbers';
    const keywords = rakeKeywords(text).map((k) => [k.phrase, k.score]);
    expect(keywords).toEqual([
      ['linear constraints', 4],
      ['natural numbers', 4],
      ['compatibility', 1],
      ['set', 1],
      ['systems', 1],
    ]);
  });
  it('splits phrases at punctuation, stopwords, digits and one-letter words', () => {
    expect(rakeCandidates('Fast cars, red boats. Big 2 trucks a day')).toEqual([
      ['fast', 'cars'],
      ['red', 'boats'],
      ['big'],
      ['trucks'],
      ['day'],
    ]);
  });
  it('counts a repeated phrase once and keeps only the best maxKeywords', () => {
    const keywords = rakeKeywords('deep learning; deep learning; cats', { maxKeywords: 1 });
    expect(keywords.map((k) => k.phrase)).toEqual(['deep learning']);
    expect(rakeKeywords('')).toEqual([]);
  });
  it('cuts runs longer than maxPhraseWords', () => {
    expect(rakeCandidates('one two three four five six seven', 3)).toEqual([
      ['one', 'two', 'three'],
      ['four', 'five', 'six'],
      ['seven'],
    ]);
  });
});
