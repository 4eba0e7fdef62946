import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import type { CrawlProgress } from '../crawl/index.js';
import { etaMs, formatDuration, formatProgress, ProgressLine } from './progress-line.js';

const progress = (extra: Partial<CrawlProgress> = {}): CrawlProgress => ({
  steps: 1040,
  pages: 1000,
  relevant: 651,
  relevantDomains: 37,
  failures: 40,
  duplicates: 0,
  harvestRate: 651 / 1040,
  inFlight: 4,
  deferred: 0,
  frontierSize: 12_345,
  elapsedMs: 31_000,
  stepsThisRun: 1040,
  pagesPerSec: 33.4,
  strategyStats: {},
  ...extra,
});

/** A stream that says it is a terminal of `columns` columns, keeping what is written. */
function terminal(columns: number): NodeJS.WriteStream & { text: () => string } {
  const stream = new PassThrough() as unknown as NodeJS.WriteStream & { text: () => string };
  let written = '';
  stream.write = ((chunk: string) => {
    written += chunk;
    return true;
  }) as typeof stream.write;
  Object.assign(stream, { isTTY: true, columns, text: () => written });
  return stream;
}

describe('the progress line', () => {
  it('shows pages against the budget, the percentage, the rate and the time left', () => {
    const line = formatProgress(progress(), { maxPages: 2000 });
    expect(line).toBe(
      'pages 1040/2000 52% | relevant 651 (62.6%) | 33.4/s | ETA 29 s | failed 40 | sites 37 | frontier 12345',
    );
    expect(etaMs(progress(), { maxPages: 2000 })).toBeCloseTo((960 / 33.4) * 1000, 6);
  });

  it('takes the earlier of the page and time budgets for the time left, and has none without a budget or a rate', () => {
    expect(etaMs(progress(), { maxPages: 2000, timeLimitMs: 40_000 })).toBe(9000);
    expect(etaMs(progress(), {})).toBeUndefined();
    expect(etaMs(progress({ pagesPerSec: 0 }), { maxPages: 2000 })).toBeUndefined();
    expect(formatProgress(progress(), { maxPages: false })).toMatch(/^pages 1040 \| relevant/);
    expect(formatDuration(3_909_000)).toBe('1:05:09');
    expect(formatDuration(249_000)).toBe('4:09');
  });

  it('fits an 80-column terminal with whole parts, the failure count kept, and a bar in front when there is room', () => {
    for (const columns of [40, 60, 80, 120, 200]) {
      const width = columns - 1;
      const line = formatProgress(progress(), { maxPages: 2000 }, width, true);
      expect(line.length, `${columns} columns`).toBeLessThanOrEqual(width);
      // Parts are dropped whole from the end, never cut.
      expect(line.endsWith('|'), line).toBe(false);
      expect(line, `${columns} columns`).toMatch(/pages 1040\/2000 52%/);
    }
    const at80 = formatProgress(progress(), { maxPages: 2000 }, 79, true);
    expect(at80).toContain('failed 40');
    expect(at80).toContain('ETA 29 s');
    const at200 = formatProgress(progress(), { maxPages: 2000 }, 199, true);
    expect(at200.startsWith(`[${'#'.repeat(12)}${'-'.repeat(12)}] `)).toBe(true);
  });

  it('redraws in place on a terminal and writes plain lines, no bar, every everyMs elsewhere', () => {
    const tty = terminal(80);
    const line = new ProgressLine(tty);
    line.show(progress(), { maxPages: 2000 });
    line.done();
    expect(tty.text().startsWith('\r\x1b[2K')).toBe(true);
    expect(tty.text().endsWith('\n')).toBe(true);
    const written: string[] = [];
    const log = new PassThrough();
    log.on('data', (d) => written.push(String(d)));
    const plain = new ProgressLine(log as unknown as NodeJS.WriteStream, 10_000);
    plain.show(progress({ elapsedMs: 1000 }), { maxPages: 2000 });
    plain.show(progress({ elapsedMs: 5000 }), { maxPages: 2000 });
    plain.show(progress({ elapsedMs: 11_000 }), { maxPages: 2000 });
    expect(written).toHaveLength(2);
    expect(written[0]).toMatch(/^pages 1040\/2000 52% \| .*frontier 12345\n$/);
  });

  it('prints readable lines on a terminal that reports no width', () => {
    const stream = terminal(0);
    new ProgressLine(stream).show(progress(), { maxPages: 2000 });
    expect(stream.text()).toContain('pages 1040/2000 52% | relevant 651');
  });

  it('puts a message such as the dashboard address on a line of its own, then draws the progress again', () => {
    const stream = terminal(120);
    const line = new ProgressLine(stream);
    line.show(progress());
    line.note('tres: dashboard at http://127.0.0.1:7373/');
    line.show(progress({ steps: 1041 }));
    expect(stream.text()).not.toMatch(/frontier 12345tres:/);
    expect(stream.text()).toContain('frontier 12345\r\x1b[2Ktres: dashboard at http://127.0.0.1:7373/\n');
  });

  it('says what a stalled crawl waits for instead of an ETA that counts down', () => {
    const stream = terminal(200);
    const line = new ProgressLine(stream);
    const budget = { maxPages: 60 };
    line.show(progress({ steps: 59, elapsedMs: 20_000, pagesPerSec: 2.95 }), budget);
    expect(stream.text()).toContain('ETA 0 s');
    line.show(
      progress({ steps: 59, elapsedMs: 80_000, pagesPerSec: 0.74, inFlight: 0, retryHosts: 1 }),
      budget,
    );
    const last = stream.text().split('\r\x1b[2K').at(-1)!;
    expect(last).toContain('waiting 1:00: 1 host in backoff/retry');
    expect(last).not.toContain('ETA');
  });

  it('names the hosts whose robots.txt the crawl waits for', () => {
    expect(formatProgress(progress({ robotsHosts: 2 }))).toContain('| waiting for robots.txt of 2 hosts |');
    expect(formatProgress(progress({ robotsHosts: 1 }))).toContain('waiting for robots.txt of 1 host |');
  });

  it('ends a log with the final figures when the last line written is older', () => {
    const stream = new PassThrough();
    let written = '';
    stream.on('data', (d) => {
      written += d;
    });
    const line = new ProgressLine(stream as unknown as NodeJS.WriteStream, 10_000);
    line.show(progress({ steps: 10, elapsedMs: 0 }));
    line.show(progress({ steps: 20, elapsedMs: 1000 }));
    line.done();
    expect(
      written
        .split('\n')
        .filter(Boolean)
        .map((l) => l.split(' |')[0]),
    ).toEqual(['pages 10', 'pages 20']);
  });
});
