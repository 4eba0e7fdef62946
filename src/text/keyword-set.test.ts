import { describe, expect, it } from 'vitest';
import { KeywordSet } from './keyword-set.js';
import { tokenize } from './tokenizer.js';

describe('KeywordSet', () => {
  const set = new KeywordSet(['Football', 'ice-hockey', 'nba'], ['World Cup', 'state of the art']);

  it('normalises keywords and keyphrases with the tokenizer', () => {
    expect(set.keywords).toEqual(['football', 'hockey', 'ice', 'nba']);
    expect(set.keyphrases).toEqual(['world cup', 'state art']);
  });
  it('counts every keyword occurrence', () => {
    expect(set.count(tokenize('Football, football and ice hockey!'))).toBe(4);
    expect(set.count(tokenize('cooking recipes'))).toBe(0);
  });
  it('finds keyphrases as contiguous tokens only', () => {
    expect(set.hasKeyphrase(tokenize('The World Cup final'))).toBe(true);
    expect(set.hasKeyphrase(tokenize('state of the art methods'))).toBe(true);
    expect(set.hasKeyphrase(tokenize('the cup of the world'))).toBe(false);
  });
  it('finds keywords in URLs as words or inside longer words', () => {
    expect(set.isInUrl('http://nba.com/x')).toBe(true);
    expect(set.isInUrl('http://footballnews.example/')).toBe(true);
    // Short keywords never match inside other words ("ice" in "office").
    expect(set.isInUrl('http://office.example/')).toBe(false);
  });
  it('round-trips through JSON', () => {
    const back = KeywordSet.fromJSON(JSON.parse(JSON.stringify(set.toJSON())));
    expect(back.keywords).toEqual(set.keywords);
    expect(back.keyphrases).toEqual(set.keyphrases);
  });
});
