import { describe, expect, it } from 'vitest';
import { createRng, DeferUrlError, RetryLaterError } from '../common/index.js';
import { FakeClock } from '../net/test-clock.js';
import type { Action } from '../types/index.js';
import { CrawlState } from './crawl-state.js';
import { RetryQueue } from './retry-queue.js';

const noneRecorded = {
  isFetched: () => false,
  isRedirectTarget: () => false,
  domainCount: () => 0,
  counters: { steps: 0, pages: 0, relevant: 0, relevantDomains: 0, failures: 0, duplicates: 0 },
};

function setUp() {
  const clock = new FakeClock();
  const state = new CrawlState(noneRecorded);
  const queue = new RetryQueue({ clock, state, maxRetries: 3, maxRetryDelayMs: 60_000, rng: createRng('q') });
  return { clock, state, queue };
}

const action = (n: number, host = `h${n}.test`): Action => ({
  url: `http://${host}/${n}`,
  host,
  domain: host,
  depth: 1,
});

const deferFor = (ms: number) =>
  new DeferUrlError('TRES_ROBOTS_UNAVAILABLE', 'robots.txt unreachable', { retryAfterMs: ms });

describe('RetryQueue', () => {
  it('takes, of the URLs due, the one put aside first, whatever their due times', async () => {
    const { clock, queue, state } = setUp();
    queue.defer(action(1), 0, deferFor(300));
    queue.defer(action(2), 0, deferFor(100));
    queue.defer(action(3), 0, deferFor(200));
    expect(queue.take(() => true)).toBeUndefined();
    await clock.advance(250);
    // 2 and 3 are due; 2 came due first but 3 came after it: put aside order decides.
    expect(queue.take(() => true)?.action.url).toBe('http://h2.test/2');
    expect(queue.take(() => true)?.action.url).toBe('http://h3.test/3');
    expect(queue.take(() => true)).toBeUndefined();
    expect(state.isFetchedOrInFlight('http://h1.test/1')).toBe(true);
    await clock.advance(100);
    expect(queue.take(() => true)?.action.url).toBe('http://h1.test/1');
    expect(state.isFetchedOrInFlight('http://h1.test/1')).toBe(false);
    expect(queue.size).toBe(0);
  });

  it('passes over URLs of busy hosts', async () => {
    const { clock, queue } = setUp();
    const transient = new RetryLaterError('TRES_CONNECTION_RESET', 'reset');
    queue.defer(action(1, 'busy.test'), 0, deferFor(10));
    queue.defer(action(2), 0, deferFor(10));
    expect(queue.retryLater(action(3), 0, transient)).not.toBe(false);
    expect([queue.retryCount, queue.deferredCount, queue.size]).toEqual([1, 2, 3]);
    await clock.advance(60_000);
    const isFree = (host: string) => host !== 'busy.test';
    expect(queue.take(isFree)?.action.url).toBe('http://h2.test/2');
    expect(queue.take(isFree)?.action.url).toBe('http://h3.test/3');
    expect(queue.take(isFree)).toBeUndefined();
    expect(queue.take(() => true)?.action.url).toBe('http://busy.test/1');
    expect([queue.retryCount, queue.deferredCount, queue.size]).toEqual([0, 0, 0]);
  });

  it('gives what a plain list in put-aside order gives, with its counts of URLs and hosts, over a seeded run of puts, takes and waits', async () => {
    const { clock, queue } = setUp();
    const rng = createRng('retry-queue-model');
    // The model: every URL put aside in a list; take = the first due one the predicates accept.
    const model: { url: string; host: string; notBeforeMs: number; isDeferred: boolean }[] = [];
    let n = 0;
    for (let step = 0; step < 5000; step++) {
      const u = rng.next();
      if (u < 0.45) {
        const host = `h${rng.int(20)}.test`;
        const a = action(n++, host);
        const delayMs = queue.defer(a, 0, deferFor(1 + rng.int(400)));
        model.push({ url: a.url, host, notBeforeMs: clock.monotonicMs() + delayMs, isDeferred: true });
      } else if (u < 0.55) {
        const host = `h${rng.int(20)}.test`;
        const a = action(n++, host);
        const delayMs = queue.retryLater(a, 0, new RetryLaterError('TRES_CONNECTION_RESET', 'reset'));
        if (delayMs !== false)
          model.push({ url: a.url, host, notBeforeMs: clock.monotonicMs() + delayMs, isDeferred: false });
      } else if (u < 0.9) {
        const busy = new Set(Array.from({ length: rng.int(5) }, () => `h${rng.int(20)}.test`));
        const now = clock.monotonicMs();
        const i = model.findIndex((r) => r.notBeforeMs <= now && !busy.has(r.host));
        const expected = i < 0 ? undefined : model.splice(i, 1)[0]?.url;
        expect(queue.take((host) => !busy.has(host))?.action.url).toBe(expected);
      } else {
        await clock.advance(rng.int(300));
      }
      expect(queue.size).toBe(model.length);
      expect(queue.deferredCount).toBe(model.filter((r) => r.isDeferred).length);
      const hostsOf = (isDeferred: boolean) =>
        new Set(model.filter((r) => r.isDeferred === isDeferred).map((r) => r.host)).size;
      expect([queue.retryHostCount, queue.deferredHostCount]).toEqual([hostsOf(false), hostsOf(true)]);
    }
    expect(n).toBeGreaterThan(2000);
  });
});
