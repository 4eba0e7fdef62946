/**
 * Tokens around each link with their DOM offsets: the <token, offset> features of the
 * apprentice of Chakrabarti, Punera and Subramanyam (WWW 2002), section 2.3.
 *
 * The paper numbers all leaves of the DOM tree from left to right, "even those DOM leaves
 * which have no text", takes the leaves l(a)..r(a) under the anchor element `a` as offset 0,
 * and gives a token of leaf m the offset m - l(a) before the anchor and m - r(a) after it;
 * |offset| is limited to dmax (5 in the paper).
 *
 * The streaming approximation used here (no tree is built):
 * - a leaf is a text node with non-whitespace text, or an element whose close event directly
 *   follows its open event (img, br, hr, input, an empty li or td...); leaves are numbered in
 *   document order as the parser reports them, which is the left-to-right order of the tree
 *   htmlparser2 would build. Whitespace-only text nodes and comments are not leaves (an HTML
 *   tidier, as in the paper, drops them; counting them would double every offset on
 *   pretty-printed pages).
 * - text that htmlparser2 reports in pieces (around entities) is one text node.
 * - tokens are kept only from visible text (and from alt text of images inside an anchor);
 *   invisible leaves (script, style, title) still count as leaves, as they are DOM leaves.
 * - to keep a link's context small on pathological pages, each leaf contributes at most
 *   {@link CONTEXT_TOKENS_PER_LEAF} tokens (those nearest to the anchor), and the anchor itself
 *   at most as many in total (an unclosed `<a>` can swallow the rest of a page).
 */
import type { LinkContextSource } from '../types/index.js';
import type { LinkContext } from './types.js';

/** Most tokens one leaf (and the anchor as a whole) contributes to a link's context. */
export const CONTEXT_TOKENS_PER_LEAF = 32;

/**
 * Appends the lowercased `[a-z0-9]+` words of `text` to `out`. A stand-in until the text room
 * provides the project-wide tokenizer.
 */
export function tokenizeInto(text: string, out: string[]): void {
  // A character scan: about twice as fast as a /[a-z0-9]+/g loop, which allocates a match
  // array per word.
  const lower = text.toLowerCase();
  let start = -1;
  for (let i = 0; i < lower.length; i++) {
    const c = lower.charCodeAt(i);
    const isWordChar = (c >= 97 && c <= 122) || (c >= 48 && c <= 57);
    if (isWordChar) {
      if (start === -1) start = i;
    } else if (start !== -1) {
      out.push(lower.slice(start, i));
      start = -1;
    }
  }
  if (start !== -1) out.push(lower.slice(start));
}

/**
 * A link context whose `tokens` and `offsets` are built from its page's words and
 * [start, end, offset] spans on first read. A reader of `source` never builds them: on the engine
 * benchmark the arrays of every link of the pages in flight (about 30 KB a page, read by none of
 * `coverage`, the outlinks codec or ACHE's encoder) lived long enough to be promoted to V8's old
 * space, and made scavenges twice as slow.
 *
 * A class, so the accessors live on its prototype: one object with accessors of its own per
 * link (`Object.defineProperties`) cost about 0.8 us to make against 0.02 us for this, a
 * seventieth of `coverage`'s CPU on the engine benchmark. `toJSON` keeps what JSON showed of the
 * own accessors, `tokens` and `offsets`; `source` stays out of JSON as before. Spreads and
 * structured clones see no own property: read `tokens` and `offsets` to copy a context.
 */
export class LazyLinkContext implements LinkContext {
  readonly #source: LinkContextSource;
  /** The tokens and offsets, once read. */
  #built: { tokens: string[]; offsets: Int8Array } | undefined;

  constructor(words: readonly string[], spans: readonly number[]) {
    this.#source = { words, spans };
  }

  get source(): LinkContextSource {
    return this.#source;
  }

  get tokens(): string[] {
    return this.build().tokens;
  }

  get offsets(): Int8Array {
    return this.build().offsets;
  }

  toJSON(): { tokens: string[]; offsets: Int8Array } {
    return { tokens: this.tokens, offsets: this.offsets };
  }

  private build(): { tokens: string[]; offsets: Int8Array } {
    if (this.#built !== undefined) return this.#built;
    const { words, spans } = this.#source;
    let count = 0;
    for (let s = 0; s < spans.length; s += 3) count += (spans[s + 1] as number) - (spans[s] as number);
    const tokens = new Array<string>(count);
    const offsets = new Int8Array(count);
    let k = 0;
    for (let s = 0; s < spans.length; s += 3) {
      const end = spans[s + 1] as number;
      const offset = spans[s + 2] as number;
      for (let i = spans[s] as number; i < end; i++, k++) {
        tokens[k] = words[i] as string;
        offsets[k] = offset;
      }
    }
    this.#built = { tokens, offsets };
    return this.#built;
  }
}

/**
 * Records the leaves of one page in document order and builds link contexts from them. A leaf's
 * text is tokenized when the first link within reach of it asks for its context: words more than
 * dMax leaves from every link (most of a page of prose) are never tokenized. On the engine
 * benchmark's web that is a third of the tokenizing (0.18 s of CPU in 20,000 pages before, 0.12
 * after), too little to show in its pages/s.
 */
export class LinkContextRecorder {
  /** Text of each leaf ('' for a leaf without visible text), in document order. */
  private readonly leafTexts: string[] = [];
  /** Tokens of the leaves tokenized so far, each leaf's as one run. */
  private readonly tokens: string[] = [];
  /** `leafStarts[m]`, `leafEnds[m]`: where leaf m's tokens are in `tokens`; -1 before it is tokenized. */
  private readonly leafStarts: number[] = [];
  private readonly leafEnds: number[] = [];

  /** Number of leaves so far, which is also the number the next leaf will get. */
  get leafCount(): number {
    return this.leafTexts.length;
  }

  /** Adds one leaf whose tokens come from `text` (pass '' for a leaf without visible text). */
  addLeaf(text: string): void {
    this.leafTexts.push(text);
    this.leafStarts.push(-1);
    this.leafEnds.push(-1);
  }

  /**
   * Context of a link whose anchor covers leaves `first`..`last` (inclusive, `first <= last`).
   * Links ask in document order, so the leaves' runs of tokens are in document order too.
   *
   * @param dMax largest |offset| kept, 0..127
   * @param wordsPerLeaf most tokens a leaf around the anchor gives (those nearest the anchor)
   */
  contextFor(first: number, last: number, dMax: number, wordsPerLeaf = CONTEXT_TOKENS_PER_LEAF): LinkContext {
    // Pass 1: the token spans to copy, as [start, end, offset] triples; pass 2 fills arrays of
    // the exact size (no growing arrays, no Int8Array.from over an iterator).
    const spans: number[] = [];
    const lo = Math.max(0, first - dMax);
    const hi = Math.min(this.leafTexts.length - 1, last + dMax);
    for (let m = lo; m <= hi; m++) this.tokenizeLeaf(m);
    const starts = this.leafStarts;
    const ends = this.leafEnds;
    for (let m = lo; m < first; m++) {
      // Before the anchor: the last tokens of the leaf are the nearest.
      const end = ends[m] as number;
      spans.push(Math.max(starts[m] as number, end - wordsPerLeaf), end, m - first);
    }
    let anchorRoom = CONTEXT_TOKENS_PER_LEAF;
    for (let m = first; m <= last && anchorRoom > 0; m++) {
      const start = starts[m] as number;
      const end = Math.min(ends[m] as number, start + anchorRoom);
      anchorRoom -= end - start;
      spans.push(start, end, 0);
    }
    for (let m = last + 1; m <= hi; m++) {
      const start = starts[m] as number;
      spans.push(start, Math.min(ends[m] as number, start + wordsPerLeaf), m - last);
    }

    // The page's words and the runs: per-page work (interning words, storing them) is done once
    // per page instead of once per link and token (link contexts were most of what
    // `coverage` cost beyond best-first). `tokens` and `offsets` are built on first read.
    return new LazyLinkContext(this.tokens, spans);
  }

  /** Tokenizes leaf `m` unless done: its tokens become the next run of `tokens`. */
  private tokenizeLeaf(m: number): void {
    if ((this.leafStarts[m] as number) >= 0) return;
    this.leafStarts[m] = this.tokens.length;
    const text = this.leafTexts[m] as string;
    if (text !== '') tokenizeInto(text, this.tokens);
    this.leafEnds[m] = this.tokens.length;
  }
}
