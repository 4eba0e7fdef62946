import { describe, expect, it } from 'vitest';
import { createRng, RetryLaterError, SkipUrlError } from '../common/index.js';
import { createRetryPolicy, retryDelayMs } from './retry-policy.js';

const retryable = new RetryLaterError('TRES_CONNECTION_RESET', 'reset');

describe('retryDelayMs', () => {
  it('backs off exponentially with jitter in [backoff/2, backoff)', () => {
    const rng = createRng('retry');
    for (const [attempt, backoff] of [
      [1, 2000],
      [2, 4000],
    ] as const) {
      for (let i = 0; i < 50; i++) {
        const delay = retryDelayMs(retryable, attempt, { rng });
        expect(delay).toBeGreaterThanOrEqual(backoff / 2);
        expect(delay).toBeLessThan(backoff);
      }
    }
  });

  it('gives up after maxRetries and for errors that are not retryable', () => {
    const rng = createRng(1);
    expect(retryDelayMs(retryable, 3, { rng })).toBe(false);
    expect(retryDelayMs(retryable, 1, { rng, maxRetries: 0 })).toBe(false);
    expect(retryDelayMs(new SkipUrlError('TRES_DNS', 'x'), 1, { rng })).toBe(false);
    expect(retryDelayMs(new Error('x'), 1, { rng })).toBe(false);
  });

  it('never retries sooner than Retry-After', () => {
    const error = new RetryLaterError('TRES_HTTP_429', 'slow down', { retryAfterMs: 120_000 });
    expect(retryDelayMs(error, 1, { rng: createRng(2) })).toBe(120_000);
  });

  it('caps the backoff at maxDelayMs', () => {
    const delay = retryDelayMs(retryable, 10, { rng: createRng(3), maxRetries: 20, maxDelayMs: 5000 });
    expect(delay).toBeLessThanOrEqual(5000);
  });

  it('is deterministic for a seed', () => {
    const a = retryDelayMs(retryable, 1, { rng: createRng('s') });
    const b = retryDelayMs(retryable, 1, { rng: createRng('s') });
    expect(a).toBe(b);
  });

  it('createRetryPolicy validates options once', () => {
    expect(() => createRetryPolicy({ rng: createRng(1), maxRetries: -1 })).toThrow(/maxRetries/);
    const policy = createRetryPolicy({ rng: createRng(1), maxRetries: 1 });
    expect(policy(retryable, 1)).toBeGreaterThan(0);
    expect(policy(retryable, 2)).toBe(false);
  });
});
