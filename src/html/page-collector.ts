/**
 * The parser callbacks of `parseHtml`: one pass over the token stream, no tree. Collects
 * raw (unresolved) values; `parse-html.ts` resolves URLs once the base URL is known.
 *
 * Robustness relies on htmlparser2's contract (kept by `LinearParser`): every open event of a
 * non-void element gets exactly one close event (implied ones included, and all still open at
 * the end), and void elements get theirs at once. Depth counters below therefore stay balanced
 * on broken HTML.
 */
import type { LinearParserHandler } from './linear-parser.js';
import { LinkContextRecorder } from './link-context.js';
import type { ResolvedParseHtmlOptions } from './parse-html-options.js';
import { TextBuffer } from './text-buffer.js';
import type { MetaRobots } from './types.js';

/** Longest title kept, in characters: an unclosed `<title>` swallows the rest of the page. */
export const MAX_TITLE_CHARS = 1_000;
/** Longest anchor text kept, in characters: an unclosed `<a>` swallows the rest of the page. */
export const MAX_ANCHOR_TEXT_CHARS = 1_000;
/** Longer hrefs are dropped unparsed (inline data, traps); URL filters cut far shorter ones. */
export const MAX_HREF_CHARS = 8_192;

/**
 * Elements whose text is never shown: `title` is read separately, `noscript` is hidden as in a
 * browser with scripts on, `iframe` content is raw text that browsers never render.
 */
const HIDDEN = new Set(['script', 'style', 'template', 'noscript', 'title', 'iframe']);

/** Elements that separate words: a space goes around their content in the visible text. */
const BLOCK = new Set(
  (
    'address article aside blockquote body br button caption center dd details dialog div dl dt ' +
    'fieldset figcaption figure footer form h1 h2 h3 h4 h5 h6 header hr html legend li main menu ' +
    'nav ol option p pre section select summary table tbody td textarea tfoot th thead tr ul'
  ).split(' '),
);

/**
 * The only attributes {@link PageCollector} reads; the parser stores no others (a hostile tag
 * may carry a million). Keep in step with the `attribs.x` reads below.
 */
export const COLLECTED_ATTRIBUTES: ReadonlySet<string> = new Set([
  'href',
  'rel',
  'alt',
  'lang',
  'name',
  'content',
  'http-equiv',
]);

/** Scheme prefixes dropped before any URL parsing (lowercased check). */
const DROPPED_SCHEMES = /^\s*(?:javascript|mailto|data|tel|about):/i;

/** A link as written in the page. */
export interface RawLink {
  href: string;
  anchor: TextBuffer;
  isNofollow: boolean;
  /** First and last leaf under the anchor element (see link-context.ts). */
  firstLeaf: number;
  lastLeaf: number;
  /** `hiddenDepth` when the link opened: its own text counts even inside `<noscript>`. */
  hiddenDepth: number;
}

/**
 * Callbacks for one page (a fresh instance per page). Feed it to a `LinearParser`, write the
 * page and end it, then read the public fields.
 */
export class PageCollector implements LinearParserHandler {
  readonly title = new TextBuffer(MAX_TITLE_CHARS);
  readonly text: TextBuffer;
  readonly links: RawLink[] = [];
  readonly metaRobots: MetaRobots = { isNoindex: false, isNofollow: false };
  readonly context: LinkContextRecorder | undefined;
  baseHref: string | undefined;
  refreshContent: string | undefined;
  canonicalHref: string | undefined;
  lang: string | undefined;

  private readonly maxLinks: number;
  /** True once a link was dropped at `maxLinks`. */
  isLinksTruncated = false;
  private pendingText = '';
  /** True between an element's open event and its first child: its close makes it a leaf. */
  private isLeafCandidate = false;
  private hiddenDepth = 0;
  private templateDepth = 0;
  private foreignDepth = 0;
  private isInTitle = false;
  private hasTitle = false;
  private hasHtmlElement = false;
  private current: RawLink | undefined;
  /** Alt text of the `<img>` (inside an anchor) or `<area>` just opened: its leaf's tokens. */
  private pendingAlt = '';

  constructor(options: ResolvedParseHtmlOptions) {
    this.text = new TextBuffer(options.maxTextChars);
    this.maxLinks = options.maxLinks;
    this.context = options.withContext ? new LinkContextRecorder() : undefined;
  }

  ontext(data: string): void {
    // htmlparser2 reports one text node in pieces around entities; join them first.
    this.pendingText += data;
  }

  onopentag(name: string, attribs: Record<string, string>): void {
    this.flushText();
    // A new <a> ends the open one, as the HTML parser's adoption agency does.
    if ((name === 'a' || name === 'area') && this.current !== undefined) this.finishLink();
    this.isLeafCandidate = true;
    this.pendingAlt = '';
    if (BLOCK.has(name)) this.space();
    if (HIDDEN.has(name)) this.hiddenDepth++;
    switch (name) {
      case 'a':
        if (attribs.href !== undefined) this.startLink(attribs.href, attribs.rel, '');
        break;
      case 'area':
        if (attribs.href !== undefined) this.startLink(attribs.href, attribs.rel, attribs.alt ?? '');
        // The alt text is the area's anchor text: the tokens of its leaf, at offset 0.
        if (this.current !== undefined) this.pendingAlt = attribs.alt ?? '';
        break;
      case 'img':
        if (this.current !== undefined && attribs.alt !== undefined && this.isLinkTextVisible()) {
          this.current.anchor.space();
          this.current.anchor.add(attribs.alt);
          this.current.anchor.space();
          this.pendingAlt = attribs.alt;
        }
        break;
      case 'base':
        if (this.baseHref === undefined && attribs.href !== undefined) this.baseHref = attribs.href;
        break;
      case 'meta':
        this.onMeta(attribs);
        break;
      case 'link':
        if (
          this.canonicalHref === undefined &&
          attribs.href !== undefined &&
          hasToken(attribs.rel, 'canonical')
        ) {
          this.canonicalHref = attribs.href;
        }
        break;
      case 'html':
        if (!this.hasHtmlElement) {
          this.hasHtmlElement = true;
          const lang = attribs.lang?.trim().toLowerCase();
          if (lang) this.lang = lang;
        }
        break;
      case 'title':
        // An <svg><title> is a tooltip, not the page title.
        if (!this.hasTitle && this.foreignDepth === 0) this.isInTitle = true;
        break;
      case 'template':
        this.templateDepth++;
        break;
      case 'svg':
      case 'math':
        this.foreignDepth++;
        break;
    }
  }

  onclosetag(name: string): void {
    this.flushText();
    if (this.isLeafCandidate) {
      // Nothing came between open and close: this element is a DOM leaf.
      this.isLeafCandidate = false;
      this.context?.addLeaf(this.pendingAlt);
    }
    this.pendingAlt = '';
    if (BLOCK.has(name)) this.space();
    if (HIDDEN.has(name) && this.hiddenDepth > 0) this.hiddenDepth--;
    switch (name) {
      case 'a':
      case 'area':
        if (this.current !== undefined) this.finishLink();
        break;
      case 'title':
        if (this.isInTitle) {
          this.isInTitle = false;
          this.hasTitle = true;
        }
        break;
      case 'template':
        if (this.templateDepth > 0) this.templateDepth--;
        break;
      case 'svg':
      case 'math':
        if (this.foreignDepth > 0) this.foreignDepth--;
        break;
    }
  }

  onend(): void {
    this.flushText();
    if (this.current !== undefined) this.finishLink();
  }

  /** Ends the pending text node: into title, visible text, anchor text and the leaf list. */
  private flushText(): void {
    const s = this.pendingText;
    if (s === '') return;
    this.pendingText = '';
    const isVisible = this.hiddenDepth === 0;
    if (isVisible) this.text.add(s);
    const isLinkText = this.current !== undefined && this.isLinkTextVisible();
    if (isLinkText) this.current?.anchor.add(s);
    if (!hasNonSpace(s)) return; // whitespace-only: a word boundary, not a DOM leaf
    if (this.isInTitle) this.title.add(s);
    this.isLeafCandidate = false;
    this.context?.addLeaf(isVisible || isLinkText ? s : '');
  }

  private startLink(href: string, rel: string | undefined, alt: string): void {
    // <template> content is inert: its links are not on the page.
    if (this.templateDepth > 0) return;
    if (this.links.length >= this.maxLinks) {
      this.isLinksTruncated = true;
      return;
    }
    if (href.length > MAX_HREF_CHARS) return;
    const trimmed = href.trim();
    if (trimmed === '' || trimmed.charCodeAt(0) === 35 /* # */ || DROPPED_SCHEMES.test(trimmed)) return;
    const link: RawLink = {
      href: trimmed,
      anchor: new TextBuffer(MAX_ANCHOR_TEXT_CHARS),
      isNofollow: hasToken(rel, 'nofollow'),
      firstLeaf: this.context?.leafCount ?? 0,
      lastLeaf: -1,
      hiddenDepth: this.hiddenDepth,
    };
    if (alt !== '') link.anchor.add(alt);
    this.links.push(link);
    this.current = link;
  }

  private finishLink(): void {
    const link = this.current as RawLink;
    this.current = undefined;
    const context = this.context;
    if (context === undefined) return;
    // An anchor with no leaf under it is a leaf itself. Its close event has added that leaf
    // already, unless a new <a> ends it first (`<a href=1><a href=2>x</a>`): add it here.
    if (context.leafCount === link.firstLeaf) {
      context.addLeaf('');
    }
    link.lastLeaf = context.leafCount - 1;
  }

  /** Text inside the current link is its anchor text unless hidden below where it opened. */
  private isLinkTextVisible(): boolean {
    return this.hiddenDepth <= (this.current as RawLink).hiddenDepth;
  }

  private space(): void {
    this.text.space();
    this.current?.anchor.space();
  }

  private onMeta(attribs: Record<string, string>): void {
    const content = attribs.content;
    if (content === undefined) return;
    if (attribs.name?.trim().toLowerCase() === 'robots') {
      for (const directive of content.toLowerCase().split(/[\s,]+/)) {
        if (directive === 'noindex' || directive === 'none') this.metaRobots.isNoindex = true;
        if (directive === 'nofollow' || directive === 'none') this.metaRobots.isNofollow = true;
      }
    } else if (
      this.refreshContent === undefined &&
      attribs['http-equiv']?.trim().toLowerCase() === 'refresh'
    ) {
      this.refreshContent = content;
    }
  }
}

/** True if the space-separated list `value` holds `token` (any case), as `rel` is read. */
function hasToken(value: string | undefined, token: string): boolean {
  if (value === undefined) return false;
  return value.toLowerCase().split(/\s+/).includes(token);
}

const NON_SPACE = /[^\s\u0000]/;

function hasNonSpace(s: string): boolean {
  return NON_SPACE.test(s);
}
