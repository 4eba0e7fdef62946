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
});
