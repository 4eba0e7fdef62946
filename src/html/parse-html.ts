/**
 * One pass over an HTML page with htmlparser2's tokenizer and tree-repair rules (callbacks, no
 * DOM tree): title, visible text, links with anchor text and DOM context, meta robots, meta
 * refresh, canonical URL and language. Time is linear in the page size whatever the markup
 * (see `linear-parser.ts`); `parseHtmlBounded` also yields to the event loop and has a budget.
 */
import { LinearParser } from './linear-parser.js';
import { parseMetaRefreshUrl } from './meta-refresh.js';
import { COLLECTED_ATTRIBUTES, PageCollector } from './page-collector.js';
import {
  type ParseHtmlOptions,
  type ResolvedParseHtmlOptions,
  resolveParseHtmlOptions,
} from './parse-html-options.js';
import type { ParsedLink, ParsedPage } from './types.js';

/**
 * Parses one HTML page.
 *
 * - Text: visible text only (not script, style, template, noscript, iframe, title); block
 *   elements separate words; whitespace collapsed; capped at `maxTextChars`. The `<head>`
 *   needs no rule of its own: only `<title>` there holds text, and stray text in a head is
 *   shown by browsers (it starts the body).
 * - Links: `<a href>` and `<area href>` in document order, resolved against the first
 *   `<base href>` (itself resolved against `pageUrl`) or `pageUrl`, as browsers do for the
 *   whole document even if the base comes later. Dropped: empty and `#fragment`-only hrefs,
 *   non-http(s) targets (javascript:, mailto:, data:, tel: ...), hrefs that do not resolve or
 *   are longer than 8,192 characters, links inside `<template>`, links past `maxLinks`. Links
 *   inside `<noscript>` are kept: a crawler runs no scripts, so that is what it is offered.
 * - Broken HTML: never throws on any input string (unclosed and stray tags, nested anchors,
 *   NUL bytes, huge attributes); htmlparser2 repairs the structure and the rules above apply.
 *
 * @param html the decoded page
 * @param pageUrl the page's absolute URL (after redirects)
 * @throws {ConfigError} only for out-of-range `options`
 */
export function parseHtml(html: string, pageUrl: string, options?: ParseHtmlOptions): ParsedPage {
  const resolved = resolveParseHtmlOptions(options);
  const { collector, parser } = startParse(html, resolved);
  parser.write(html);
  parser.end();
  return finishParse(collector, pageUrl, resolved);
}

/** A collector and a parser feeding it, for one page. */
export function startParse(
  html: string,
  resolved: ResolvedParseHtmlOptions,
): { collector: PageCollector; parser: LinearParser } {
  const collector = new PageCollector(resolved);
  return { collector, parser: new LinearParser(collector, html, COLLECTED_ATTRIBUTES) };
}

/** The page once the parser has ended: URLs resolved against the base, link contexts built. */
export function finishParse(
  collector: PageCollector,
  pageUrl: string,
  resolved: ResolvedParseHtmlOptions,
): ParsedPage {
  // An unparseable base makes `new URL(href, base)` throw even for absolute hrefs.
  const pageBase = URL.canParse(pageUrl) ? pageUrl : undefined;
  const baseHref = collector.baseHref;
  const resolvedBase = baseHref === undefined ? undefined : resolveHttpUrl(baseHref, pageBase);
  const linkBase = resolvedBase ?? pageBase;
  const baseUrl = resolvedBase ?? pageUrl;
  const links: ParsedLink[] = [];
  const context = collector.context;
  for (const raw of collector.links) {
    const url = resolveHttpUrl(raw.href, linkBase);
    if (url === undefined) continue;
    const link: ParsedLink = { url, anchorText: raw.anchor.toString(), isNofollow: raw.isNofollow };
    if (context !== undefined)
      link.context = context.contextFor(
        raw.firstLeaf,
        raw.lastLeaf,
        resolved.contextDMax,
        resolved.contextWords,
      );
    links.push(link);
  }

  const page: ParsedPage = {
    title: collector.title.toString(),
    text: collector.text.toString(),
    links,
    baseUrl,
    metaRobots: collector.metaRobots,
    isTextTruncated: collector.text.isTruncated,
    isLinksTruncated: collector.isLinksTruncated,
  };
  const refreshTarget =
    collector.refreshContent === undefined ? undefined : parseMetaRefreshUrl(collector.refreshContent);
  const metaRefreshUrl = refreshTarget === undefined ? undefined : resolveHttpUrl(refreshTarget, linkBase);
  if (metaRefreshUrl !== undefined) page.metaRefreshUrl = metaRefreshUrl;
  const canonicalUrl =
    collector.canonicalHref === undefined ? undefined : resolveHttpUrl(collector.canonicalHref, linkBase);
  if (canonicalUrl !== undefined) page.canonicalUrl = canonicalUrl;
  if (collector.lang !== undefined) page.lang = collector.lang;
  return page;
}

/** Absolute http(s) URL of `href` against `base` (a valid URL, if given), or undefined. */
function resolveHttpUrl(href: string, base: string | undefined): string | undefined {
  let url: URL;
  try {
    url = new URL(href, base);
  } catch {
    return undefined;
  }
  return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : undefined;
}
