/**
 * A stand-in relevance judge until the trained classifiers of the relevance room are plugged in:
 * the share of the topic's keywords that occur in the page (title counted twice), squashed into
 * a probability. It is deliberately simple and is not the reward model of the papers.
 */
import type { PageJudge, PageToJudge } from './judge.js';

const WORD = /[\p{L}\p{N}]+/gu;

export interface KeywordJudgeOptions {
  /** Topic keywords (single words; case-insensitive). */
  keywords: string[];
  /** Keyword occurrences at which the probability reaches 0.5. @default 3 */
  halfAtCount?: number;
}

/** Judges pages by keyword occurrences: p = n / (n + halfAtCount). */
export class KeywordJudge implements PageJudge {
  readonly name = 'keywords';
  private readonly keywords: Set<string>;
  private readonly halfAtCount: number;

  constructor(options: KeywordJudgeOptions) {
    this.keywords = new Set(options.keywords.map((k) => k.toLowerCase()));
    this.halfAtCount = options.halfAtCount ?? 3;
  }

  async judge(pages: PageToJudge[]): Promise<Float32Array> {
    const out = new Float32Array(pages.length);
    pages.forEach((page, i) => {
      const n = this.count(page.title) * 2 + this.count(page.text);
      out[i] = n / (n + this.halfAtCount);
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
