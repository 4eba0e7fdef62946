/**
 * A stand-in relevance judge for when no trained classifier is given: keyword occurrences
 * squashed into a probability, p = n / (n + halfAtCount). Pages count title words twice; links
 * count their anchor text and the words of their URL. It is deliberately simple and is not the
 * reward model of the papers (see the relevance room for those).
 */
import type { AnchorToJudge, PageJudge, PageToJudge } from './judge.js';

const WORD = /[\p{L}\p{N}]+/gu;
/** Any character outside ASCII: such a text is counted with {@link WORD}. */
const NON_ASCII = /[^\x00-\x7f]/;

export interface KeywordJudgeOptions {
  /** Topic keywords (single words; case-insensitive). */
  keywords: string[];
  /** Keyword occurrences at which a page's probability reaches 0.5. @default 3 */
  halfAtCount?: number;
}

/** Judges pages and links by keyword occurrences. */
export class KeywordJudge implements PageJudge {
  readonly name = 'keywords';
  private readonly keywords: Set<string>;
  private readonly halfAtCount: number;

  /** Lengths of the shortest and the longest keyword. */
  private readonly minLength: number;
  private readonly maxLength: number;

  constructor(options: KeywordJudgeOptions) {
    this.keywords = new Set(options.keywords.map((k) => k.toLowerCase()));
    this.halfAtCount = options.halfAtCount ?? 3;
    const lengths = [...this.keywords].map((k) => k.length);
    this.minLength = Math.min(...lengths);
    this.maxLength = Math.max(...lengths);
  }

  async scorePages(pages: readonly PageToJudge[]): Promise<Float32Array> {
    const out = new Float32Array(pages.length);
    pages.forEach((page, i) => {
      const n = this.count(page.title) * 2 + this.count(page.text);
      out[i] = n / (n + this.halfAtCount);
    });
    return out;
  }

  async scoreAnchors(anchors: readonly AnchorToJudge[]): Promise<Float32Array> {
    const out = new Float32Array(anchors.length);
    anchors.forEach((anchor, i) => {
      const n = this.count(anchor.anchorText) + this.count(anchor.url);
      out[i] = n / (n + 1);
    });
    return out;
  }

  /**
   * Occurrences of keywords among the words of `text` (runs of letters and digits, lowercased).
   * An ASCII text is scanned character by character, and only words as long as some keyword are
   * looked up: the engine benchmark judged every page and anchor with the regex, which allocates
   * a match per word (0.96 s of a 20,000-page `coverage` crawl).
   */
  private count(text: string): number {
    if (this.keywords.size === 0) return 0;
    let n = 0;
    const lower = text.toLowerCase();
    if (NON_ASCII.test(lower)) {
      for (const m of lower.matchAll(WORD)) if (this.keywords.has(m[0])) n++;
      return n;
    }
    const { minLength, maxLength } = this;
    let start = -1;
    for (let i = 0; i <= lower.length; i++) {
      const c = i < lower.length ? lower.charCodeAt(i) : 0;
      if ((c >= 97 && c <= 122) || (c >= 48 && c <= 57)) {
        if (start < 0) start = i;
      } else if (start >= 0) {
        const length = i - start;
        if (length >= minLength && length <= maxLength && this.keywords.has(lower.slice(start, i))) n++;
        start = -1;
      }
    }
    return n;
  }
}
