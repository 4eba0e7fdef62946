import { describe, expect, it } from 'vitest';
import { createRng } from '../common/index.js';
import { parseHtml } from '../html/index.js';
import { contentFingerprint, hammingDistance } from './content-fingerprint.js';
import { pageFingerprint } from './page-fingerprint.js';

/** A documentation page: a ~15,000-character navigation sidebar of links, then its own text. */
function docPage(title: string, body: string): string {
  const nav = Array.from(
    { length: 600 },
    (_, i) => `<li><a href="/n${i}.html">Section ${i} notation topic</a></li>`,
  );
  return `<html><title>${title}</title><body><ul class="toc">${nav.join('')}</ul><div>${body}</div></body></html>`;
}

function words(seed: number, n: number): string {
  const rng = createRng(seed);
  const vocabulary = [
    'chord',
    'piano',
    'staff',
    'note',
    'pedal',
    'voice',
    'beam',
    'clef',
    'tie',
    'slur',
    'bar',
    'key',
  ];
  return Array.from({ length: n }, () => vocabulary[Math.floor(rng.next() * vocabulary.length)]).join(' ');
}

describe('fingerprints of pages that share a navigation sidebar', () => {
  const chords = parseHtml(docPage('Chord notation', words(1, 250)), 'http://a.test/chords.html');
  const piano = parseHtml(docPage('Piano', words(2, 250)), 'http://a.test/piano.html');

  it('are near-copies when the whole text is fingerprinted (a false positive seen on notation pages)', () => {
    const a = contentFingerprint(`${chords.title} ${chords.text}`);
    const b = contentFingerprint(`${piano.title} ${piano.text}`);
    expect(hammingDistance(a.simhash, b.simhash)).toBeLessThanOrEqual(3);
  });

  it('are not near-copies when the main content is fingerprinted, and a real copy still is', () => {
    const a = pageFingerprint(chords);
    const b = pageFingerprint(piano);
    expect(hammingDistance(a.simhash, b.simhash)).toBeGreaterThan(3);
    // The same page under another URL, with another sidebar: still a copy.
    const copy = parseHtml(
      `<html><title>Chord notation</title><body><a href="/x">Home</a><div>${words(1, 250)}</div></body></html>`,
      'http://a.test/copy.html',
    );
    expect(hammingDistance(pageFingerprint(copy).simhash, a.simhash)).toBeLessThanOrEqual(3);
  });

  it('falls back to the whole text for a page that is nearly all links', () => {
    const hub = parseHtml(docPage('Index', 'see the sections'), 'http://a.test/index.html');
    expect(pageFingerprint(hub)).toEqual(contentFingerprint(`${hub.title} ${hub.text}`));
  });
});
