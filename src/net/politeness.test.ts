import { describe, expect, it } from 'vitest';
import { ConfigError } from '../common/index.js';
import { Politeness } from './politeness.js';
import { FakeClock } from './test-clock.js';

function setup(options = {}) {
  const clock = new FakeClock();
  return { clock, politeness: new Politeness({ minDelayMs: 1000, ...options }, { clock }) };
}

describe('Politeness', () => {
  it('waits minDelayMs from the end of one request to the start of the next', async () => {
    const { clock, politeness } = setup();
    expect(politeness.isHostReady('a.test')).toBe(true);
    politeness.acquire('a.test');
    expect(politeness.isHostReady('a.test')).toBe(false);
    await clock.advance(5000); // a long request: the delay counts from its end
    politeness.release('a.test');
    expect(politeness.isHostReady('a.test')).toBe(false);
    expect(politeness.nextReadyAtMs('a.test')).toBe(6000);
    await clock.advance(999);
    expect(politeness.isHostReady('a.test')).toBe(false);
    await clock.advance(1);
    expect(politeness.isHostReady('a.test')).toBe(true);
    expect(politeness.isHostReady('b.test')).toBe(true);
  });

  it('allows no delay with minDelayMs 0', () => {
    const { politeness } = setup({ minDelayMs: 0 });
    politeness.acquire('a.test');
    politeness.release('a.test');
    expect(politeness.isHostReady('a.test')).toBe(true);
  });

  it('uses the Crawl-delay when longer than minDelayMs, capped at maxCrawlDelayMs', async () => {
    const { clock, politeness } = setup({ maxCrawlDelayMs: 10_000 });
    politeness.setCrawlDelay('a.test', 5000);
    expect(politeness.delayMsOf('a.test')).toBe(5000);
    politeness.setCrawlDelay('b.test', 500);
    expect(politeness.delayMsOf('b.test')).toBe(1000);
    politeness.setCrawlDelay('c.test', 3_600_000);
    expect(politeness.delayMsOf('c.test')).toBe(10_000);
    politeness.acquire('a.test');
    politeness.release('a.test');
    await clock.advance(4999);
    expect(politeness.isHostReady('a.test')).toBe(false);
    await clock.advance(1);
    expect(politeness.isHostReady('a.test')).toBe(true);
  });

  it('limits concurrent requests per host and reports a busy host as Infinity', () => {
    const { politeness } = setup({ minDelayMs: 0, maxConnectionsPerHost: 2 });
    politeness.acquire('a.test');
    expect(politeness.isHostReady('a.test')).toBe(true);
    politeness.acquire('a.test');
    expect(politeness.isHostReady('a.test')).toBe(false);
    expect(politeness.nextReadyAtMs('a.test')).toBe(Number.POSITIVE_INFINITY);
    expect(() => politeness.acquire('a.test')).toThrow(/not ready/);
  });

  it('pushes a host back with retryAfter', async () => {
    const { clock, politeness } = setup({ minDelayMs: 0 });
    politeness.retryAfter('a.test', 30_000);
    expect(politeness.isHostReady('a.test')).toBe(false);
    await clock.advance(30_000);
    expect(politeness.isHostReady('a.test')).toBe(true);
  });

  it('acquireWhenReady waits for a release and then the delay, one waiter at a time', async () => {
    const { clock, politeness } = setup();
    politeness.acquire('a.test');
    const order: string[] = [];
    const first = politeness.acquireWhenReady('a.test').then(() => order.push('first'));
    const second = politeness.acquireWhenReady('a.test').then(() => order.push('second'));
    await clock.advance(10);
    politeness.release('a.test');
    await clock.advance(999);
    expect(order).toEqual([]);
    await clock.advance(1);
    await first;
    expect(order).toEqual(['first']);
    politeness.release('a.test');
    await clock.advance(1000);
    await second;
    expect(order).toEqual(['first', 'second']);
  });

  it('acquireWhenReady stops waiting when aborted', async () => {
    const { politeness } = setup();
    politeness.acquire('a.test');
    const controller = new AbortController();
    const waiting = politeness.acquireWhenReady('a.test', controller.signal);
    controller.abort(new Error('stop'));
    await expect(waiting).rejects.toThrow('stop');
  });

  it('forgets idle hosts so memory stays bounded', async () => {
    const { clock, politeness } = setup();
    for (let i = 0; i < 5000; i++) {
      politeness.acquire(`h${i}.test`);
      politeness.release(`h${i}.test`);
      await clock.advance(i % 100 === 0 ? 2000 : 0);
    }
    expect(politeness.size).toBeLessThan(2100);
  });

  it('validates options naming the field', () => {
    expect(() => new Politeness({ minDelayMs: -1 })).toThrow(ConfigError);
    expect(() => new Politeness({ maxConnectionsPerHost: 0 })).toThrow(/maxConnectionsPerHost/);
  });
});
