/**
 * Errors of tres. One base class with a stable `code` that callers match on (as undici's
 * `UND_ERR_*`), and subclasses named for what the crawl loop does next:
 * - {@link RetryLaterError}: a transient failure (network error, 5xx, 429); the loop may retry.
 * - {@link SkipUrlError}: this URL cannot be fetched or used (robots, guard, too big, wrong type).
 * - {@link StopCrawlError}: the crawl cannot go on (store unwritable, bad configuration).
 * - {@link ConfigError}: bad input from the user: names the file and field and says what to do.
 *
 * Modules throw; only the crawl loop decides to retry, skip or stop, and records why. Every code
 * is in the catalogue, error-codes.ts (docs/errors.md).
 */
import type { ErrorCode } from './error-codes.js';

/** Context carried by every error: whatever is known of where it happened. */
export interface ErrorContext {
  url?: string;
  host?: string;
  status?: number;
  file?: string;
  field?: string;
  [key: string]: unknown;
}

export interface TresErrorOptions {
  cause?: unknown;
  context?: ErrorContext;
}

/** Base class of every error tres throws on purpose. */
export class TresError extends Error {
  /** Stable machine-readable code from the catalogue, e.g. `TRES_CONNECT_TIMEOUT`. */
  readonly code: ErrorCode;
  readonly context: ErrorContext;

  constructor(code: ErrorCode, message: string, options: TresErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = new.target.name;
    this.code = code;
    this.context = options.context ?? {};
  }
}

/** A transient failure: the same request may succeed later. `retryAfterMs` is a server's hint. */
export class RetryLaterError extends TresError {
  readonly retryAfterMs: number | undefined;
  constructor(code: ErrorCode, message: string, options: TresErrorOptions & { retryAfterMs?: number } = {}) {
    super(code, message, options);
    this.retryAfterMs = options.retryAfterMs;
  }
}

/**
 * The URL was not requested because something it depends on is not available yet (its origin's
 * robots.txt is unreachable: RFC 9309 2.3.1.4 says disallow for now). The crawl keeps the URL and
 * tries it after `retryAfterMs` without counting an attempt or spending page budget.
 */
export class DeferUrlError extends RetryLaterError {}

/** This URL is not to be fetched or used; the crawl goes on without it. */
export class SkipUrlError extends TresError {}

/** The crawl cannot go on. */
export class StopCrawlError extends TresError {}

/** Bad configuration or bad input from the user. The message names the file/field and a fix. */
export class ConfigError extends TresError {
  constructor(message: string, options: TresErrorOptions = {}) {
    super('TRES_CONFIG', message, options);
  }
}

/**
 * Short code of any thrown value, for records and metrics: a TresError's catalogue code, another
 * error's own `code` (e.g. a Node system error's `ENOENT`), else `TRES_UNKNOWN`.
 */
export function errorCode(error: unknown): string {
  if (error instanceof TresError) return error.code;
  if (error && typeof error === 'object' && 'code' in error && typeof error.code === 'string')
    return error.code;
  return 'TRES_UNKNOWN';
}
