/**
 * From a finished fetch to what gets recorded and observed: parse the page once, judge it,
 * turn its links into frontier candidates, and build the WARC payload.
 */
import { SkipUrlError, TresError } from '../common/index.js';
import { contextWindowOptions, type ParsedPage, parseHtmlBounded } from '../html/index.js';
import { type FetchResult, looksBinary, type PageFetch } from '../net/index.js';
import type { PdfExtractor } from '../pdf/index.js';
import type { PageRecord, WarcPayload } from '../store/index.js';
import { type ContentFingerprint, pageFingerprint } from '../text/index.js';
import type { Action, DiscoveredLink, LinkContextWindow, Outcome } from '../types/index.js';
import { normalizeUrl } from '../url/index.js';
import { parseXRobotsTag } from './indexing-directives.js';
import type { PageJudge } from './judge.js';
import type { LinkProcessor } from './link-processor.js';

export interface ProcessFetchOptions {
  judge: PageJudge;
  threshold: number;
  links: LinkProcessor;
  shouldFollowNofollow: boolean;
  withLinkContext: boolean;
  /** The part of each link's context to keep (the strategy's window); absent: all. */
  linkContextWindow?: LinkContextWindow;
  /** Score every new link's anchor text with the judge (for strategies that use it). */
  shouldScoreAnchors: boolean;
  isKnown: (url: string) => boolean;
  /**
   * Most time parsing one page may take, in ms (time spent parsing; the parse yields to the
   * event loop between slices). A page over it fails with `TRES_PARSE_TIMEOUT`. Turn off with
   * `false`.
   * @default 2000
   */
  parseTimeBudgetMs?: number | false;
  /** A noindex page keeps no title in the store and is left out of exports. @default true */
  shouldObeyNoindex?: boolean;
  /** Product token X-Robots-Tag prefixes are matched against. @default 'tres' */
  userAgentToken?: string;
  /** Visible text kept per page, in characters; `false` keeps all. @default 200_000 */
  maxTextChars?: number | false;
  /** Links read per page; `false` reads all. @default 10_000 */
  maxLinksPerPage?: number | false;
  /**
   * Reads `application/pdf` responses (text, title, links) in its worker threads; undefined
   * leaves a PDF unread (recorded as `TRES_NOT_HTML`). @default undefined
   */
  pdf?: PdfExtractor;
  /**
   * Renders an HTML page (JavaScript run) and returns its document, or undefined when the page
   * is not to be rendered; a render that fails (SkipUrlError) leaves the page parsed as fetched.
   * @default undefined (no rendering)
   */
  render?: (fetched: PageFetch) => Promise<string> | undefined;
}

/** The media type of PDF responses. */
export const PDF_MEDIA_TYPE = 'application/pdf';

export interface ProcessedFetch {
  record: PageRecord;
  outcome: Outcome;
  warc: { warc: WarcPayload } | undefined;
}

/**
 * Parses, judges and prepares one fetched response.
 * @throws {SkipUrlError} `TRES_PARSE_TIMEOUT` (context: url, status) for a page that cannot be
 *   parsed within `parseTimeBudgetMs`; nothing else on page content.
 */
export async function processFetch(
  fetched: PageFetch,
  action: Action,
  o: ProcessFetchOptions,
): Promise<ProcessedFetch> {
  const result = fetched.result;
  const finalUrl = normalizeUrl(fetched.finalUrl) ?? fetched.finalUrl;
  const isSuccess = result.status >= 200 && result.status < 300;
  const isPdf = isSuccess && o.pdf !== undefined && result.contentType === PDF_MEDIA_TYPE;
  let pdfError: string | undefined;
  let pdfPage: ParsedPage | undefined;
  if (isPdf) {
    // A PDF that cannot be read is still recorded with its bytes in the WARC, with the reason.
    try {
      pdfPage = await readPdf(fetched, o.pdf as PdfExtractor);
    } catch (error) {
      if (!(error instanceof TresError)) throw error;
      pdfError = error.code;
    }
  }
  const isOk = isSuccess && !isPdf && result.text !== undefined;
  // A body that is not text (a PNG sent as text/html) is no page: its "text" would be garbage.
  const isBinary = isOk && looksBinary(result.body);
  const isPage = pdfPage !== undefined || (isOk && !isBinary);
  const directives: string[] = [];
  let canonicalUrl: string | undefined;
  let title = '';
  let text = '';
  let probability = 0;
  let links: DiscoveredLink[] = [];
  let fingerprint: ContentFingerprint | undefined;
  let renderedHtml: string | undefined;
  if (isPage) {
    if (!pdfPage) renderedHtml = await rendered(fetched, o);
    const page = pdfPage ?? (await parseWithinBudget(fetched, renderedHtml ?? result.text ?? '', o));
    title = page.title;
    text = page.text;
    // The main content's SimHash: a shared navigation sidebar does not make pages near-copies.
    fingerprint = pageFingerprint(page);
    probability = (await o.judge.scorePages([{ url: finalUrl, title, text: page.text }]))[0] ?? 0;
    const header = parseXRobotsTag(result.headers['x-robots-tag'], o.userAgentToken ?? 'tres');
    const isNofollow = page.metaRobots.isNofollow || header.isNofollow;
    if ((page.metaRobots.isNoindex || header.isNoindex) && o.shouldObeyNoindex !== false)
      directives.push('noindex');
    if (isNofollow && !o.shouldFollowNofollow) directives.push('nofollow');
    if (page.isTextTruncated) directives.push('text-capped');
    if (page.isLinksTruncated) directives.push('links-capped');
    canonicalUrl = page.canonicalUrl;
    if (!isNofollow || o.shouldFollowNofollow) {
      const raw = page.metaRefreshUrl
        ? [...page.links, { url: page.metaRefreshUrl, anchorText: '', isNofollow: false }]
        : page.links;
      links = o.links.pageLinks(raw, action.depth + 1, {
        shouldFollowNofollow: o.shouldFollowNofollow,
        isKnown: o.isKnown,
      });
      if (o.shouldScoreAnchors && links.length > 0) {
        const scores = await o.judge.scoreAnchors(links);
        links.forEach((link, i) => {
          link.anchorProbability = scores[i] ?? 0;
        });
      }
    }
  }
  const reward = isPage && probability >= o.threshold ? 1 : 0;
  const record: PageRecord = {
    url: action.url,
    finalUrl,
    status: result.status,
    contentType: result.contentType,
    host: action.host,
    domain: action.domain,
    depth: action.depth,
    reward,
    probability,
    title,
    isPage,
    fetchedAt: result.fetchedAt,
    durationMs: result.durationMs,
    bytes: result.body.length,
    outlinks: links,
  };
  if (fingerprint) record.fingerprint = fingerprint;
  if (directives.length > 0) record.directives = directives;
  // A noindex page keeps no title (its words are the site's to keep out of indexes).
  if (directives.includes('noindex')) delete record.title;
  if (canonicalUrl !== undefined) record.canonicalUrl = canonicalUrl;
  if (action.parentUrl !== undefined) record.parentUrl = action.parentUrl;
  if (!isPage)
    record.errorCode =
      pdfError ??
      (isBinary ? 'TRES_BINARY_BODY' : result.status >= 300 ? `TRES_HTTP_${result.status}` : 'TRES_NOT_HTML');
  const outcome: Outcome = { action, finalUrl, isPage, reward, probability, links };
  if (isPage) {
    // For the strategy's learner (seed features use the title; the apprentice, Lim's crawler and
    // others read the text); strategies must not keep them.
    outcome.title = title;
    outcome.text = text;
  }
  if (record.errorCode !== undefined) outcome.errorCode = record.errorCode;
  const warc = toWarcPayload(result);
  // The WARC file keeps the document read (a conversion record) beside the response as fetched.
  if (renderedHtml !== undefined) warc.renderedHtml = renderedHtml;
  return { record, outcome, warc: { warc } };
}

/** A PDF's text, title and links in the shape of a parsed HTML page. */
async function readPdf(fetched: PageFetch, pdf: PdfExtractor): Promise<ParsedPage> {
  const extracted = await pdf.extract(fetched.result.body, fetched.finalUrl);
  return {
    title: extracted.title,
    text: extracted.text,
    links: extracted.links,
    baseUrl: fetched.finalUrl,
    metaRobots: { isNoindex: false, isNofollow: false },
    isTextTruncated: extracted.isCut,
    isLinksTruncated: false,
  };
}

/** The rendered document of an HTML page, or undefined (not rendered, or the render failed). */
async function rendered(fetched: PageFetch, o: ProcessFetchOptions): Promise<string | undefined> {
  try {
    return await o.render?.(fetched);
  } catch (error) {
    if (error instanceof SkipUrlError) return undefined; // timeout, crash: the page as fetched
    throw error; // ConfigError (no chromium): the crawl stops and says how to install it
  }
}

async function parseWithinBudget(
  fetched: PageFetch,
  html: string,
  o: ProcessFetchOptions,
): Promise<ParsedPage> {
  const result = fetched.result;
  try {
    return await parseHtmlBounded(html, fetched.finalUrl, {
      withContext: o.withLinkContext,
      ...contextWindowOptions(o.linkContextWindow),
      ...(o.maxTextChars === undefined ? {} : { maxTextChars: o.maxTextChars }),
      ...(o.maxLinksPerPage === undefined ? {} : { maxLinks: o.maxLinksPerPage }),
      ...(o.parseTimeBudgetMs === undefined ? {} : { timeBudgetMs: o.parseTimeBudgetMs }),
    });
  } catch (error) {
    if (!(error instanceof TresError) || error.code === 'TRES_CONFIG') throw error;
    // The fetch itself succeeded: the record keeps its status.
    throw new SkipUrlError(error.code, error.message, {
      cause: error,
      context: { ...error.context, status: result.status },
    });
  }
}

/** The WARC request/response pair of the final hop (redirect hops are not archived). */
export function toWarcPayload(hop: FetchResult): WarcPayload {
  let rawHeaders = '';
  for (let i = 0; i + 1 < hop.rawHeaders.length; i += 2)
    rawHeaders += `${hop.rawHeaders[i]}: ${hop.rawHeaders[i + 1]}\r\n`;
  const payload: WarcPayload = {
    url: hop.url,
    requestHeaders: hop.requestHeaders,
    statusLine: `HTTP/${hop.httpVersion} ${hop.status} ${hop.statusText}`.trim(),
    responseHeaders: rawHeaders,
    body: hop.body,
    fetchDate: hop.fetchedAt,
  };
  if (hop.remoteAddress !== undefined) payload.remoteIp = hop.remoteAddress;
  if (hop.isTruncated) payload.truncated = 'length';
  return payload;
}
