import { describe, expect, it } from 'vitest';
import type { DiscoveredLink } from '../../types/index.js';
import { KeptLinks } from './kept-links.js';

function link(url: string, depth = 2): DiscoveredLink {
  const host = new URL(url).hostname;
  return { url, host, domain: `d-${host}`, anchorText: 'anchor', depth };
}

describe('KeptLinks', () => {
  it('gives kept pages back last first, each with its links in page order', () => {
    const kept = new KeptLinks();
    kept.push('http://p.test/1', [link('http://a.test/1'), link('http://b.test/1', 3)]);
    kept.push('http://p.test/2', []);
    kept.push('http://p.test/3', [link('http://c.test/1')]);
    expect(kept.length).toBe(2);
    expect(kept.linkCount).toBe(3);
    expect(kept.pop()).toEqual({
      parentUrl: 'http://p.test/3',
      links: [{ url: 'http://c.test/1', host: 'c.test', domain: 'd-c.test', depth: 2 }],
    });
    // A page kept after a pop takes the popped page's place without touching the older one.
    kept.push('http://p.test/4', [link('http://e.test/1'), link('http://f.test/1')]);
    expect(kept.pop()?.links.map((l) => l.url)).toEqual(['http://e.test/1', 'http://f.test/1']);
    expect(kept.pop()).toEqual({
      parentUrl: 'http://p.test/1',
      links: [
        { url: 'http://a.test/1', host: 'a.test', domain: 'd-a.test', depth: 2 },
        { url: 'http://b.test/1', host: 'b.test', domain: 'd-b.test', depth: 3 },
      ],
    });
    expect(kept.pop()).toBeUndefined();
    expect(kept.linkCount).toBe(0);
  });

  it('grows past its first columns', () => {
    const kept = new KeptLinks();
    const links = Array.from({ length: 3000 }, (_, i) => link(`http://a.test/${i}`));
    kept.push('http://p.test/', links);
    expect(kept.pop()?.links.map((l) => l.url)).toEqual(links.map((l) => l.url));
  });
});
