/**
 * `parseHtml` for the crawl loop: the page is parsed in slices with a yield to the event loop
 * between them (other fetches go on while a big page is parsed), and the parse gives up once it
 * has spent its time budget, so that no page can hold the crawl (1,000,000 nested
 * `<div>` froze a crawl for 12 minutes).
 */
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import { type Clock, ConfigError, SkipUrlError, systemClock } from '../common/index.js';
import { finishParse, startParse } from './parse-html.js';
import { type ParseHtmlOptions, resolveParseHtmlOptions } from './parse-html-options.js';
import type { ParsedPage } from './types.js';

/** Code of the error thrown when a page cannot be parsed within its time budget. */
export const PARSE_TIMEOUT_CODE = 'TRES_PARSE_TIMEOUT';

/** Options of {@link parseHtmlBounded}: those of `parseHtml` and the bounds. */
export interface ParseHtmlBoundedOptions extends ParseHtmlOptions {
  /**
   * Most time the parse may spend, in milliseconds. Counted over the slices it runs, not the
   * time other work runs while it yields, so a busy crawl does not make normal pages fail.
   * Past it the parse stops with a SkipUrlError `TRES_PARSE_TIMEOUT`. Turn off with `false`.
   * @default 2000
   */
  timeBudgetMs?: number | false;
  /**
   * Characters parsed between two yields to the event loop. A page up to this size is parsed
   * without yielding. Any markup parses at several MB/s, so a slice holds the loop for a few ms.
   * @default 65_536
   */
  sliceChars?: number;
  /** Clock the budget is measured with. @default systemClock */
  clock?: Clock;
}

/** Defaults of the bounds in {@link ParseHtmlBoundedOptions}. */
export const DEFAULT_PARSE_BOUNDS = Object.freeze({ timeBudgetMs: 2000, sliceChars: 65_536 });

/**
 * Parses one page as `parseHtml` does (same result), in slices of `sliceChars` with a yield to
 * the event loop between two slices, within `timeBudgetMs`.
 *
 * @param html the decoded page
 * @param pageUrl the page's absolute URL (after redirects)
 * @throws {SkipUrlError} code `TRES_PARSE_TIMEOUT` (context: url, parsedChars, totalChars) when
 *   the budget is spent before the page is parsed
 * @throws {ConfigError} for out-of-range options
 */
export async function parseHtmlBounded(
  html: string,
  pageUrl: string,
  options: ParseHtmlBoundedOptions = {},
): Promise<ParsedPage> {
  const resolved = resolveParseHtmlOptions(options);
  const budgetMs = options.timeBudgetMs ?? DEFAULT_PARSE_BOUNDS.timeBudgetMs;
  const sliceChars = options.sliceChars ?? DEFAULT_PARSE_BOUNDS.sliceChars;
  if (budgetMs !== false && !(budgetMs > 0)) {
    throw new ConfigError(
      `parseHtml option timeBudgetMs: expected a positive number or false, got ${budgetMs}`,
      {
        context: { field: 'timeBudgetMs' },
      },
    );
  }
  if (!Number.isInteger(sliceChars) || sliceChars < 1) {
    throw new ConfigError(`parseHtml option sliceChars: expected a positive integer, got ${sliceChars}`, {
      context: { field: 'sliceChars' },
    });
  }
  const clock = options.clock ?? systemClock;
  const { collector, parser } = startParse(html, resolved);
  let spentMs = 0;
  for (let from = 0; from < html.length; from += sliceChars) {
    if (from > 0) await yieldToEventLoop();
    const startMs = clock.monotonicMs();
    // A slice ends inside a tag or a text node as often as not: the tokenizer keeps its state.
    parser.write(html.slice(from, from + sliceChars));
    spentMs += clock.monotonicMs() - startMs;
    const parsedChars = Math.min(html.length, from + sliceChars);
    if (budgetMs !== false && spentMs > budgetMs && parsedChars < html.length) {
      throw new SkipUrlError(
        PARSE_TIMEOUT_CODE,
        `parsing ${pageUrl} took more than ${budgetMs} ms (${parsedChars} of ${html.length} characters parsed)`,
        { context: { url: pageUrl, parsedChars, totalChars: html.length } },
      );
    }
  }
  // Closing what is still open costs at most one event per element already counted above.
  parser.end();
  return finishParse(collector, pageUrl, resolved);
}
