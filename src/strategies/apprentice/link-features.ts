/**
 * The apprentice's features of a link (u, v) (Chakrabarti, Punera and Subramanyam, WWW 2002,
 * section 2.2): every token t near the HREF as the pair <t, d>, d its DOM offset (|d| <= dMax),
 * plus the critic's verdict on the source page u as one more feature (section 2.2.3 adds "the
 * names of some of the top-scoring classes for u"; our critic has two classes, so the name of
 * the winning class, HIGH or LOW).
 *
 * Features are interned to small integer ids (first seen, first numbered, so ids repeat
 * exactly with the crawl) and a link keeps them as an Int32Array: a frontier of 100k links
 * costs about 100k x (tokens near the link) x 4 bytes instead of 100k arrays of strings.
 */

import { isStopword, tokenize } from '../../text/index.js';
import type { DiscoveredLink } from '../../types/index.js';

/** Separator between a token and its offset in an interned feature name. */
const SEP = '\u0001';

/** Interns <token, offset> features and the critic's class features. */
export class LinkFeatureSpace {
  private readonly ids = new Map<string, number>();
  /** |DOM offset| of each feature id (0 for the critic's class). */
  private readonly distances: number[] = [];

  /** @param dMax largest |DOM offset| kept (the paper's dmax = 5); the parser keeps at most its own `contextDMax`. */
  constructor(private readonly dMax: number) {}

  /** Distinct features seen so far (link tokens and critic classes). */
  get size(): number {
    return this.ids.size;
  }

  /** |DOM offset| of feature `id` (0 for the critic's class and for anchor tokens). */
  distanceOf(id: number): number {
    return this.distances[id] as number;
  }

  /**
   * The features of a link found on a page the critic judged `isSourceRelevant`: the link's
   * context tokens at their offsets; without a context (seeds, a replayed outcome) the anchor
   * text's tokens at offset 0, which is where the context puts them.
   */
  encode(link: DiscoveredLink, isSourceRelevant: boolean): Int32Array {
    const out: number[] = [this.intern(`critic${SEP}${isSourceRelevant ? 'HIGH' : 'LOW'}`, 0)];
    const context = link.context;
    if (context !== undefined) {
      const { tokens, offsets } = context; // getters on a parsed page's context: read once
      for (let i = 0; i < tokens.length; i++) {
        const d = offsets[i] as number;
        const token = tokens[i] as string;
        // The parser's tokens are [a-z0-9]+ with stopwords; drop stopwords and one-character
        // tokens as Rainbow's default stoplist and the project tokenizer do.
        if (d > this.dMax || d < -this.dMax || token.length < 2 || isStopword(token)) continue;
        out.push(this.intern(`${token}${SEP}${d}`, Math.abs(d)));
      }
    } else {
      for (const token of tokenize(link.anchorText)) out.push(this.intern(`${token}${SEP}0`, 0));
    }
    return Int32Array.from(out);
  }

  /** Every feature name by id and its distance, for checkpoints. */
  learnedState(): { names: string[]; distances: Int32Array } {
    return { names: [...this.ids.keys()], distances: Int32Array.from(this.distances) };
  }

  /** Loads a {@link LinkFeatureSpace.learnedState} into this (empty) space. */
  loadLearnedState(state: { names: string[]; distances: Int32Array }): void {
    for (let i = 0; i < state.names.length; i++)
      this.intern(state.names[i] as string, state.distances[i] as number);
  }

  private intern(name: string, distance: number): number {
    let id = this.ids.get(name);
    if (id === undefined) {
      id = this.ids.size;
      this.ids.set(name, id);
      this.distances.push(distance);
    }
    return id;
  }
}
