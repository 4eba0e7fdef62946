/**
 * Micro-benchmark of the crawl store's hot path, `recordPage`, with 30 KB bodies and 50 outlinks
 * per page (not a test). After `npm run build`: `node dist/store/crawl-store.bench.js [pages]`.
 * Prints records/s for the full store and for parts of it, then one JSON line with the figures.
 */
import { rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRng, systemClock } from '../common/index.js';
import type { DiscoveredLink } from '../types/index.js';
import { CrawlStore } from './crawl-store.js';
import { encodeOutlinks } from './outlinks-codec.js';
import type { CrawlStoreOptions, PageRecord } from './types.js';
import { buildExchangeRecords, type WarcPayload } from './warc-record.js';

const BODY_BYTES = 30_000;
const OUTLINKS = 50;
const pages = Number(process.argv[2] ?? 3000);
const rng = createRng('store-bench');
const vocabulary = Array.from({ length: 5000 }, (_, k) => `w${(k * 7919).toString(36)}`);

/** A word drawn with a skewed (Zipf-like) frequency, as in real text. */
function word(): string {
  return vocabulary[Math.floor(rng.next() ** 5 * vocabulary.length)]!;
}

/** HTML of paragraphs and links; gzip shrinks it about 3 times (real pages: 3 to 4 times). */
function body(): Buffer {
  let text = '<!doctype html><html><head><title>bench</title></head><body><div class="content">';
  while (text.length < BODY_BYTES) {
    text += '<div class="row"><p class="para text-body">';
    for (let k = 0; k < 25; k++) text += `${word()} `;
    text += `<a href="/wiki/${word()}_${word()}" class="link internal" title="${word()}">${word()}</a></p></div>\n`;
  }
  return Buffer.from(text.slice(0, BODY_BYTES));
}

function links(i: number): DiscoveredLink[] {
  return Array.from({ length: OUTLINKS }, (_, k) => {
    const host = `www.site${rng.int(500)}.example.org`;
    const anchorText = `${rng.pick(vocabulary)} ${rng.pick(vocabulary)} ${rng.pick(vocabulary)}`;
    return {
      url: `https://${host}/articles/${i}/${k}-${rng.pick(vocabulary)}.html`,
      host,
      domain: host,
      anchorText,
      depth: 3,
    };
  });
}

function page(i: number): { record: PageRecord; warc: WarcPayload } {
  const url = `https://www.site${i % 500}.example.org/page/${i}`;
  const host = new URL(url).host;
  const b = body();
  const record: PageRecord = {
    ...{
      url,
      status: 200,
      contentType: 'text/html',
      host,
      domain: host,
      depth: 2,
      parentUrl: `${url}/parent`,
    },
    ...{
      anchorText: 'a link',
      reward: i % 2,
      probability: 0.5,
      title: `Page ${i}`,
      durationMs: 40,
      bytes: b.byteLength,
    },
    outlinks: links(i),
  };
  const warc: WarcPayload = {
    url,
    requestHeaders: { 'User-Agent': 'tres-bench', Accept: 'text/html' },
    statusLine: 'HTTP/1.1 200 OK',
    responseHeaders: { 'Content-Type': 'text/html', 'Content-Encoding': 'gzip', Server: 'bench' },
    body: b,
    remoteIp: '127.0.0.1',
    fetchDate: systemClock.now(),
  };
  return { record, warc };
}

/** Records per second of `run` over the inputs. */
function rate<T>(inputs: T[], run: (input: T) => void): number {
  const start = systemClock.monotonicMs();
  for (const input of inputs) run(input);
  return inputs.length / ((systemClock.monotonicMs() - start) / 1000);
}

const inputs = Array.from({ length: pages }, (_, i) => page(i));
const results: Record<string, number> = {};
results.warcRecordsOnly = rate(inputs, (p) => buildExchangeRecords(p.warc, 0.5));
results.warcRecordsLevel1Only = rate(inputs, (p) => buildExchangeRecords(p.warc, 0.5, 1));
results.outlinksOnly = rate(inputs, (p) => encodeOutlinks(p.record.outlinks ?? []));
/** Records per second with the WARC gzip done by `prepareWarc` in the thread pool, 8 in flight. */
async function ratePrepared(store: CrawlStore): Promise<number> {
  const start = systemClock.monotonicMs();
  let next = 0;
  const worker = async () => {
    while (next < inputs.length) {
      const p = inputs[next++]!;
      const prepared = await store.prepareWarc(p.warc, 0.5);
      store.recordPage(p.record, { warc: prepared });
    }
  };
  await Promise.all(Array.from({ length: 8 }, worker));
  return inputs.length / ((systemClock.monotonicMs() - start) / 1000);
}

const variants: Array<[string, Partial<CrawlStoreOptions>, boolean]> = [
  ['store', {}, false],
  ['storeWarcLevel1', { warcGzipLevel: 1 }, false],
  ['storePreparedWarc', {}, true],
  ['storeNoWarc', { warc: false }, false],
];
for (const [name, options, isPrepared] of variants) {
  const dir = join(tmpdir(), `tres-store-bench-${process.pid}-${name}`);
  rmSync(dir, { recursive: true, force: true });
  const store = CrawlStore.open(dir, { mode: 'create', ...options });
  results[name] = isPrepared
    ? await ratePrepared(store)
    : rate(inputs, (p) => store.recordPage(p.record, { warc: p.warc }));
  store.close();
  if (name === 'store') {
    results.warcBytesPerPage = statSync(join(dir, 'pages.warc.gz')).size / pages;
    results.sqliteBytesPerPage = statSync(join(dir, 'crawl.sqlite')).size / pages;
  }
  rmSync(dir, { recursive: true, force: true });
}
for (const [name, value] of Object.entries(results)) {
  console.log(
    `${name.padEnd(20)} ${value.toFixed(0).padStart(8)} ${name.endsWith('Page') ? 'bytes' : 'records/s'}`,
  );
}
console.log(
  JSON.stringify({ bench: 'store/recordPage', pages, bodyBytes: BODY_BYTES, outlinks: OUTLINKS, ...results }),
);
