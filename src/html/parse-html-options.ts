/** Options of `parseHtml`, their defaults and their validation. */
import { ConfigError } from '../common/index.js';
import type { LinkContextWindow } from '../types/index.js';
import { CONTEXT_TOKENS_PER_LEAF } from './link-context.js';

/** Options of `parseHtml`. */
export interface ParseHtmlOptions {
  /**
   * Compute each link's {@link LinkContext} (tokens around it with DOM offsets), for the
   * apprentice strategy. Costs a tokenization of the page; off when nobody needs it.
   * @default false
   */
  withContext?: boolean;
  /**
   * Largest |DOM offset| of a context token: leaves further than this from the anchor are
   * left out. Integer 0..127 (offsets are stored in an Int8Array); 0 keeps the anchor only.
   * The paper settles on 5 (Chakrabarti et al. 2002, section 3.4).
   * @default 5
   */
  contextDMax?: number;
  /**
   * Most words a leaf around the anchor gives a link's context: those nearest the anchor (the
   * last words of a leaf before it, the first of a leaf after it). Integer >= 1.
   * @default 32
   */
  contextWords?: number;
  /**
   * Cap on the stored visible text, in characters (UTF-16 code units); text past it is
   * dropped (links are still read). Turn off with `false`.
   * @default 200_000
   */
  maxTextChars?: number | false;
  /**
   * Cap on the number of links read from one page; later links are dropped. Turn off with
   * `false`.
   * @default 10_000
   */
  maxLinks?: number | false;
}

/** Defaults of {@link ParseHtmlOptions}. */
export const DEFAULT_PARSE_HTML_OPTIONS: Readonly<Required<ParseHtmlOptions>> = Object.freeze({
  withContext: false,
  contextDMax: 5,
  contextWords: CONTEXT_TOKENS_PER_LEAF,
  maxTextChars: 200_000,
  maxLinks: 10_000,
});

/** Options with defaults filled in and `false` caps turned into infinity. */
export interface ResolvedParseHtmlOptions {
  withContext: boolean;
  contextDMax: number;
  contextWords: number;
  maxTextChars: number;
  maxLinks: number;
}

/** The options that keep `window` of each link's context (none: the parser's whole window). */
export function contextWindowOptions(
  window: Readonly<LinkContextWindow> | undefined,
): Pick<ParseHtmlOptions, 'contextDMax' | 'contextWords'> {
  return window === undefined ? {} : { contextDMax: window.leaves, contextWords: window.words };
}

/**
 * Fills in defaults and checks ranges.
 * @throws {ConfigError} naming the field when a value is out of range.
 */
export function resolveParseHtmlOptions(options: ParseHtmlOptions | undefined): ResolvedParseHtmlOptions {
  const d = DEFAULT_PARSE_HTML_OPTIONS;
  const contextDMax = options?.contextDMax ?? d.contextDMax;
  if (!Number.isInteger(contextDMax) || contextDMax < 0 || contextDMax > 127) {
    fail('contextDMax', `expected an integer in 0..127, got ${String(contextDMax)}`);
  }
  const contextWords = options?.contextWords ?? d.contextWords;
  if (!Number.isInteger(contextWords) || contextWords < 1) {
    fail('contextWords', `expected an integer >= 1, got ${String(contextWords)}`);
  }
  return {
    withContext: options?.withContext ?? d.withContext,
    contextDMax,
    contextWords,
    maxTextChars: cap('maxTextChars', options?.maxTextChars ?? d.maxTextChars),
    maxLinks: cap('maxLinks', options?.maxLinks ?? d.maxLinks),
  };
}

function cap(field: string, value: number | false): number {
  if (value === false) return Number.POSITIVE_INFINITY;
  if (!Number.isInteger(value) || value < 0)
    fail(field, `expected a non-negative integer or false, got ${String(value)}`);
  return value;
}

function fail(field: string, message: string): never {
  throw new ConfigError(`parseHtml option ${field}: ${message}`, { context: { field } });
}
