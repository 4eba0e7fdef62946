/**
 * A stand-in relevance judge for when no trained classifier is given: keyword occurrences
 * squashed into a probability, p = n / (n + halfAtCount). Pages count title words twice; links
 * count their anchor text and the words of their URL. It is deliberately simple and is not the
 * reward model of the papers (see the relevance room for those).
 */
import type { AnchorToJudge, PageJudge, PageToJudge } from './judge.js';

const WORD = /[\p{L}\p{N}]+/gu;

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

  constructor(options: KeywordJudgeOptions) {
    this.keywords = new Set(options.keywords.map((k) => k.toLowerCase()));
    this.halfAtCount = options.halfAtCount ?? 3;
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

  private count(text: string): number {
    if (this.keywords.size === 0) return 0;
    let n = 0;
    for (const m of text.toLowerCase().matchAll(WORD)) if (this.keywords.has(m[0])) n++;
    return n;
  }
}
