/**
 * When to retry a failed fetch. The net room never loops on retries itself: it throws
 * RetryLaterError, and the crawl loop asks this policy whether and when to try again.
 * Exponential backoff with "equal jitter" (half fixed, half random: spreads retries without ever
 * retrying immediately), never sooner than the server's Retry-After hint.
 */

import type { Rng } from '../common/index.js';
import { RetryLaterError } from '../common/index.js';
import { checkNumber, withDefaults } from './option-checks.js';

/** Options of {@link retryDelayMs}. */
export interface RetryPolicyOptions {
  /** Random source for the jitter (fork a named stream, e.g. `rng.fork('retry')`). */
  rng: Rng;
  /** Retries after the first attempt; 0 turns retrying off. @default 2 */
  maxRetries?: number;
  /** Delay before the first retry, before jitter, in ms; doubles with each retry. @default 2000 */
  baseDelayMs?: number;
  /** Cap on the backoff (not on a server's Retry-After), in ms. @default 60_000 */
  maxDelayMs?: number;
}

/** Defaults of {@link RetryPolicyOptions} (all but `rng`). */
export const DEFAULT_RETRY_POLICY_OPTIONS: Readonly<Required<Omit<RetryPolicyOptions, 'rng'>>> =
  Object.freeze({
    maxRetries: 2,
    baseDelayMs: 2000,
    maxDelayMs: 60_000,
  });

/**
 * How long to wait before retrying after `error`, or false when the URL should not be retried.
 * @param error what the failed attempt threw; only RetryLaterError is retried.
 * @param attempt how many attempts have failed so far (1 after the first failure).
 * @returns a delay in ms: max(Retry-After hint, min(maxDelayMs, base * 2^(attempt-1)) * U[0.5, 1)),
 *   or false when `error` is not retryable or `attempt > maxRetries`.
 * @throws ConfigError for bad options (validate once with {@link createRetryPolicy}).
 */
export function retryDelayMs(error: unknown, attempt: number, options: RetryPolicyOptions): number | false {
  const { maxRetries, baseDelayMs, maxDelayMs } = withDefaults(DEFAULT_RETRY_POLICY_OPTIONS, options);
  if (!(error instanceof RetryLaterError) || attempt > maxRetries || attempt < 1) return false;
  const backoff = Math.min(maxDelayMs, baseDelayMs * 2 ** (attempt - 1));
  const jittered = backoff / 2 + (backoff / 2) * options.rng.next();
  return Math.round(Math.max(error.retryAfterMs ?? 0, jittered));
}

/**
 * A retry policy with its options checked once.
 * @throws ConfigError naming the first bad option.
 */
export function createRetryPolicy(
  options: RetryPolicyOptions,
): (error: unknown, attempt: number) => number | false {
  const merged = { ...withDefaults(DEFAULT_RETRY_POLICY_OPTIONS, options), rng: options.rng };
  checkNumber('RetryPolicy', 'maxRetries', merged.maxRetries, 0, true);
  checkNumber('RetryPolicy', 'baseDelayMs', merged.baseDelayMs, 0);
  checkNumber('RetryPolicy', 'maxDelayMs', merged.maxDelayMs, 0);
  return (error, attempt) => retryDelayMs(error, attempt, merged);
}
