/**
 * Micro-benchmark of `parseHtml` (not a test). Parses a generated page of about 50 KB many
 * times and prints pages/s and MB/s, with and without link context.
 *
 * Run after a build: `npm run build && node dist/html/parse-html.bench.js [iterations]`.
 */
import { pathToFileURL } from 'node:url';
import { createRng, type Rng, systemClock } from '../common/index.js';
import { parseHtml } from './parse-html.js';

const WORDS = (
  'crawler focused topic relevant page link anchor frontier reward agent tree leaf domain ' +
  'harvest rate chess opening endgame club tournament music guitar kernel driver memory'
).split(' ');

/** A page like a documentation page: nav list, paragraphs with inline links, a table, a script. */
export function generatePage(rng: Rng, targetBytes: number): string {
  const words = (n: number): string => Array.from({ length: n }, () => rng.pick(WORDS)).join(' ');
  const parts: string[] = [
    '<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>',
    words(6),
    '</title><link rel="stylesheet" href="/style.css"><script>window.x = "<a href=no>";</script></head><body>',
    '<nav><ul>',
  ];
  for (let i = 0; i < 30; i++) parts.push(`<li><a href="/nav/${i}.html">${words(2)}</a></li>\n`);
  parts.push('</ul></nav><main>');
  let size = parts.join('').length;
  let section = 0;
  while (size < targetBytes) {
    const block: string[] = [`<h2 id="s${section}">${words(4)}</h2>\n<p>`];
    for (let s = 0; s < 6; s++) {
      block.push(`${words(12)} <a href="../page-${rng.int(5000)}.html#x" title="t">${words(3)}</a> `);
      block.push(`<em>${words(2)}</em> &amp; ${words(8)}.\n`);
    }
    block.push('</p>\n<table><tr><td>');
    block.push(
      `${words(3)}</td><td><a href="https://other${rng.int(50)}.org/x?a=1">${words(2)}</a></td></tr></table>\n`,
    );
    const html = block.join('');
    parts.push(html);
    size += html.length;
    section++;
  }
  parts.push('</main></body></html>');
  return parts.join('');
}

function run(html: string, iterations: number, withContext: boolean): void {
  let links = 0;
  for (let i = 0; i < Math.min(50, iterations); i++)
    links += parseHtml(html, 'http://example.com/a/b.html', { withContext }).links.length; // warm-up
  const start = systemClock.monotonicMs();
  for (let i = 0; i < iterations; i++) {
    links += parseHtml(html, 'http://example.com/a/b.html', { withContext }).links.length;
  }
  const seconds = (systemClock.monotonicMs() - start) / 1000;
  const pagesPerSec = iterations / seconds;
  const mbPerSec = (html.length * iterations) / seconds / 1e6;
  console.log(
    `withContext=${withContext}: ${pagesPerSec.toFixed(0)} pages/s, ${mbPerSec.toFixed(1)} MB/s ` +
      `(${iterations} pages of ${(html.length / 1000).toFixed(1)} KB, ${links} links seen)`,
  );
}

// Run only as a script: tests import generatePage from here.
if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const iterations = Number(process.argv[2] ?? 500);
  const page = generatePage(createRng('parse-html-bench'), 50_000);
  run(page, iterations, false);
  run(page, iterations, true);
}
