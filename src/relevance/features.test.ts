import { describe, expect, it } from 'vitest';
import { KeywordSet } from '../text/index.js';
import { anchorExamples, keywordFeatureSize, pageExamples, writeKeywordFeatures } from './features.js';

const topic = { set: new KeywordSet(['hockey', 'puck'], ['ice hockey']), shortcut1: 3 };

function features(tokens: string[], url = ''): number[] {
  const out = new Float32Array(keywordFeatureSize(topic.shortcut1));
  writeKeywordFeatures({ tokens, url }, topic, out, 0);
  return Array.from(out);
}

describe('keyword inputs of KwBiLSTM', () => {
  it('writes the thermometer [count==0, count>=1, count>=2] and [density, keyphrase, keyword in URL]', () => {
    expect(features(['soup', 'bread'])).toEqual([1, 0, 0, 0, 0, 0]);
    expect(features(['hockey', 'news', 'today', 'more'], 'http://x.example/puck')).toEqual([
      0, 1, 0, 0.25, 0, 1,
    ]);
    expect(features(['ice', 'hockey', 'puck', 'hockey'])).toEqual([0, 1, 1, 0.75, 1, 0]);
  });
  it('gives zero density for an empty text', () => {
    expect(features([])).toEqual([1, 0, 0, 0, 0, 0]);
  });
  it('tokenises pages as title + text and anchors as text + URL words', () => {
    expect(pageExamples([{ url: 'u', title: 'Ice Hockey', text: 'the puck' }])[0]?.tokens).toEqual([
      'ice',
      'hockey',
      'puck',
    ]);
    expect(anchorExamples([{ url: 'http://nhl.example/scores', anchorText: 'Results' }])[0]?.tokens).toEqual([
      'results',
      'nhl',
      'example',
      'scores',
    ]);
  });
});
