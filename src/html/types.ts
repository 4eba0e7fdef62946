/** What one pass over an HTML page yields. Produced by `parseHtml` in this room. */

import type { LinkContext } from '../types/index.js';

/** Words around a link with their DOM offsets (the apprentice's, Chakrabarti et al. 2002): the types room's. */
export type { LinkContext };

/** One `<a href>` (or `<area href>`) of a page, resolved to an absolute URL. */
export interface ParsedLink {
  /** Absolute URL resolved against `<base href>` or the page URL; not yet normalised. */
  url: string;
  /** Visible anchor text, whitespace collapsed (alt text of images inside the anchor included). */
  anchorText: string;
  /** `rel="nofollow"` on the link. */
  isNofollow: boolean;
  /** Tokens around the link; present only when asked for (`withContext`). */
  context?: LinkContext;
}

export interface MetaRobots {
  isNoindex: boolean;
  isNofollow: boolean;
}

export interface ParsedPage {
  /** `<title>` text, whitespace collapsed; '' if none. */
  title: string;
  /** Visible text (no script, style, template, noscript), whitespace collapsed. */
  text: string;
  /** Links in document order (duplicates kept; callers dedupe after normalisation). */
  links: ParsedLink[];
  /** Base URL used to resolve links (from `<base href>` or the page URL). */
  baseUrl: string;
  metaRobots: MetaRobots;
  /** Absolute target of `<meta http-equiv="refresh" content="N; url=...">`, if any. */
  metaRefreshUrl?: string;
  /** Absolute `<link rel="canonical">` URL, if any. */
  canonicalUrl?: string;
  /** True when visible text was dropped at `maxTextChars`. */
  isTextTruncated: boolean;
  /** True when links were dropped at `maxLinks` (links after the cap are not read). */
  isLinksTruncated: boolean;
  /** `<html lang>` attribute, lowercased, if any. */
  lang?: string;
}
