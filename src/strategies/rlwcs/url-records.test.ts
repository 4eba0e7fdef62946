import { describe, expect, it } from 'vitest';
import { UrlRecords } from './url-records.js';

describe('RLwCS URL records', () => {
  it('keeps each URL its best key and its parents relevance through growth', () => {
    const r = new UrlRecords();
    expect(r.key('http://a.test/0')).toBeUndefined();
    for (let i = 0; i < 5000; i++) {
      r.setKey(`http://a.test/${i}`, -i);
      r.addParent(`http://a.test/${i}`, 0.25);
      if (i % 2 === 0) r.addParent(`http://a.test/${i}`, 0.75);
    }
    expect(r.key('http://a.test/4999')).toBe(-4999);
    expect(r.key('http://a.test/0')).toBe(-0);
    expect(r.takeParentMean('http://a.test/10')).toBe(0.5);
    expect(r.takeParentMean('http://a.test/11')).toBe(0.25);
    // Taken: the parents are forgotten, the key stays.
    expect(r.takeParentMean('http://a.test/10')).toBeUndefined();
    expect(r.key('http://a.test/10')).toBe(-10);
  });

  it('knows a URL that only has parents as never queued', () => {
    const r = new UrlRecords();
    r.addParent('http://b.test/x', 1);
    expect(r.key('http://b.test/x')).toBeUndefined();
    r.setKey('http://b.test/x', Number.NEGATIVE_INFINITY);
    expect(r.key('http://b.test/x')).toBe(Number.NEGATIVE_INFINITY);
    expect(r.takeParentMean('http://b.test/unknown')).toBeUndefined();
  });
});
