/**
 * The link features of ACHE's link classifier (VIDA-NYU/ache, `LinkNeighborhoodWrapper` and
 * `LinkClassifierFeatureSelector`): binary "word occurs" features in three fields of a link,
 * the words of its URL, of its anchor text and of the text around it. At each training the
 * features are re-selected: the most frequent words of each field among the training links
 * (ACHE keeps 150 URL words, 150 anchor words and 100 words around, each seen at least twice).
 *
 * Differences from ACHE, by choice: words come from the project tokenizer (no Porter stemming);
 * "around" is the link's DOM context (tokens at offset != 0, dMax 5) instead of ACHE's own
 * window; the URL's last host label ("host_com") is not a feature.
 *
 * Words are interned: a link is stored as one sorted Int32Array of field-word ids, so a frontier
 * of 100k links costs about 100-200 bytes per link and rescoring it needs no tokenizing.
 */
import { ConfigError } from '../../common/index.js';
import { isStopword, tokenize, urlTokens } from '../../text/index.js';
import type { DiscoveredLink, LinkContextWindow } from '../../types/index.js';
import { WordTable } from './word-table.js';

/**
 * Most URL origins {@link FieldWords}' cache of recent ones holds (it was also the size of a cache
 * of recent context words: at 2048 the engine benchmark's web, about 16k distinct context words,
 * emptied that every 27 pages; at 16384 `encode` took about 15% less time).
 */
const RECENT_WORDS = 16_384;
/**
 * Up to this many ids a link's ids are sorted by insertion, more by the typed array's own sort.
 * On Node 20 the native sort is faster from about 16 ids (random ids: 0.76 against 0.56 us at 32,
 * 3.9 against 2.3 us at 100); a link of the engine benchmark's web has 41 on average.
 */
const INSERTION_SORT_MAX = 16;
/** A page word no link has met yet (see `FieldWords.pageIds`). */
const UNSEEN = -2;
/** Characters that end a URL's host: '/', '?', '#', ':'. */
const ORIGIN_ENDS = [47, 63, 35, 58];

/** Every word a link context holds, whatever window the parser kept. */
const FULL_WINDOW: Readonly<LinkContextWindow> = Object.freeze({
  leaves: 127,
  words: Number.MAX_SAFE_INTEGER,
});

/** The three fields, in id order. */
export const LINK_FIELDS = ['url', 'anchor', 'around'] as const;
export type LinkField = (typeof LINK_FIELDS)[number];

/** How many words of each field ACHE keeps at a training, and the least count a word needs. */
export interface FeatureSelection {
  /** @default 150 */
  url: number;
  /** @default 150 */
  anchor: number;
  /** @default 100 */
  around: number;
  /** @default 2 */
  minCount: number;
}

/** ACHE's numbers (`LinkClassifierFeatureSelector`: FilterData(150, 2) and FilterData(100, 2)). */
export const ACHE_FEATURE_SELECTION: Readonly<FeatureSelection> = Object.freeze({
  url: 150,
  anchor: 150,
  around: 100,
  minCount: 2,
});

/**
 * Interns field-word pairs as small integers. One table per field, keyed by the word (a
 * ./word-table.ts, by two hashes of it): every link of every page is encoded, and a "field:word"
 * key built per token was the largest cost of `coverage` on the engine benchmark (7.8% of its CPU
 * time in idOf); a Map per field after that still cost 0.5 s of a 33 s crawl.
 */
export class FieldWords {
  private readonly ids: Record<LinkField, WordTable> = {
    url: new WordTable(),
    anchor: new WordTable(),
    around: new WordTable(),
  };
  private readonly names: string[] = [];
  /** Ids of the link being encoded. */
  private scratch = new Int32Array(64);
  /**
   * The 'around' id of every context word met, stopwords and one-letter words as -1: the lookup
   * of each word of each page, one table probe where the vocabulary's would add a stopword test.
   * It keeps every context word of the crawl (a recent-words Map emptied at 16,384 did before):
   * 12 to 24 bytes a word, about 5 MB at 200,000 distinct words.
   */
  private readonly aroundIds = new WordTable();
  /**
   * The 'url' ids of the words of recent URLs' scheme and host ("https://www.lirc.org"), which a
   * page's links mostly share; emptied when it holds {@link RECENT_WORDS}.
   */
  private readonly recentOrigins = new Map<string, Int32Array>();
  /** The origin of the last link encoded ('' before the first) and its ids. */
  private lastOrigin = '';
  private lastOriginIds: Int32Array = new Int32Array(0);
  /** The words of the page whose links are being encoded (a link context's `source`)... */
  private pageWords: readonly string[] | undefined;
  /**
   * ...and their 'around' ids as far as its links have met them ({@link UNSEEN} before, -1: none),
   * in the first `pageWords.length` entries (the buffer is reused from page to page).
   */
  private pageIds = new Int32Array(0);

  /** Number of distinct field-word pairs seen. */
  get size(): number {
    return this.names.length;
  }

  /** The id of `word` in `field` (a new id the first time). */
  idOf(field: LinkField, word: string): number {
    const ids = this.ids[field];
    let id = ids.get(word);
    if (id === undefined) {
      id = this.names.length;
      ids.set(word, id);
      this.names.push(`${field}:${word}`);
    }
    return id;
  }

  /** Every "field:word" by id, for checkpoints. */
  learnedState(): string[] {
    return [...this.names];
  }

  /**
   * Loads a {@link FieldWords.learnedState} into this vocabulary, which must be empty (a resume,
   * before any link is encoded). @throws ConfigError if it is not empty.
   */
  loadLearnedState(names: readonly string[]): void {
    if (this.names.length > 0) throw new ConfigError('link words load a checkpoint only while empty');
    for (const name of names) {
      const colon = name.indexOf(':');
      const field = name.slice(0, colon) as LinkField;
      if (!LINK_FIELDS.includes(field)) throw new ConfigError(`link words: '${name}' has no known field`);
      this.ids[field].set(name.slice(colon + 1), this.names.length);
      this.names.push(name);
    }
  }

  /** "field:word" of an id. */
  nameOf(id: number): string {
    return this.names[id] as string;
  }

  /**
   * The sorted, distinct field-word ids of a link (without its context's: `isContextUsed` false;
   * with those of `window` only).
   */
  encode(
    link: Pick<DiscoveredLink, 'url' | 'anchorText' | 'context'>,
    isContextUsed = true,
    window: Readonly<LinkContextWindow> = FULL_WINDOW,
  ): Int32Array {
    return this.encodeView(link, isContextUsed, window).slice();
  }

  /**
   * {@link FieldWords.encode} into a buffer the next call reuses: for a caller that copies the ids
   * it keeps (a copy per link, an ArrayBuffer outside V8's heap each, was a tenth of `encode`'s
   * time and added to the garbage of every discovered link).
   */
  encodeView(
    link: Pick<DiscoveredLink, 'url' | 'anchorText' | 'context'>,
    isContextUsed = true,
    window: Readonly<LinkContextWindow> = FULL_WINDOW,
  ): Int32Array {
    // Every discovered link of a crawl comes here: ids are gathered in a reused buffer, then
    // sorted and deduplicated, instead of a Set per link (garbage on the engine benchmark).
    let n = 0;
    // The URL's words are those of its origin and those of the rest: a non-letter ('/', ':',
    // '?', '#') ends the host, so no word spans both.
    const url = link.url;
    let hostEnd = this.lastOrigin.length;
    let originIds = this.lastOriginIds;
    // Most links of a page go to its own origin: the last one's, when the URL starts with it and
    // ends its host there, skips the scan, the slice and the lookup.
    if (
      hostEnd === 0 ||
      !url.startsWith(this.lastOrigin) ||
      (hostEnd < url.length && !ORIGIN_ENDS.includes(url.charCodeAt(hostEnd)))
    ) {
      const scheme = url.indexOf('://');
      hostEnd = scheme < 0 ? 0 : scheme + 3;
      if (scheme >= 0)
        while (hostEnd < url.length && !ORIGIN_ENDS.includes(url.charCodeAt(hostEnd))) hostEnd++;
      const origin = url.slice(0, hostEnd);
      const known = this.recentOrigins.get(origin);
      if (known !== undefined) originIds = known;
      else {
        if (this.recentOrigins.size >= RECENT_WORDS) this.recentOrigins.clear();
        originIds = Int32Array.from(urlTokens(origin), (w) => this.idOf('url', w));
        this.recentOrigins.set(origin, originIds);
      }
      this.lastOrigin = origin;
      this.lastOriginIds = originIds;
    }
    for (const id of originIds) n = this.push(n, id);
    for (const w of urlTokens(url.slice(hostEnd))) n = this.push(n, this.idOf('url', w));
    for (const w of tokenize(link.anchorText)) n = this.push(n, this.idOf('anchor', w));
    const context = isContextUsed ? link.context : undefined;
    if (context?.source !== undefined) {
      // The page's words are interned once each for all its links, in the order the links meet
      // them, so the ids are those the per-token path below gives.
      const { words, spans } = context.source;
      if (words !== this.pageWords) {
        this.pageWords = words;
        if (this.pageIds.length < words.length) this.pageIds = new Int32Array(words.length * 2);
        this.pageIds.fill(UNSEEN, 0, words.length);
      }
      const ids = this.pageIds;
      const { leaves, words: perLeaf } = window;
      for (let s = 0; s < spans.length; s += 3) {
        const offset = spans[s + 2] as number;
        if (offset === 0 || offset > leaves || -offset > leaves) continue;
        // A leaf's words nearest the link: the last ones before it, the first ones after it.
        let start = spans[s] as number;
        let end = spans[s + 1] as number;
        if (end - start > perLeaf) {
          if (offset < 0) start = end - perLeaf;
          else end = start + perLeaf;
        }
        for (let i = start; i < end; i++) {
          let id = ids[i] as number;
          if (id === UNSEEN) {
            id = this.aroundId(words[i] as string);
            ids[i] = id;
          }
          if (id >= 0) n = this.push(n, id);
        }
      }
    } else if (context) {
      const { tokens, offsets } = context;
      const { leaves, words: perLeaf } = window;
      // A leaf's tokens are one run of equal offsets (see html's LinkContextRecorder).
      for (let runStart = 0; runStart < tokens.length; ) {
        const offset = offsets[runStart] as number;
        let runEnd = runStart + 1;
        while (runEnd < tokens.length && offsets[runEnd] === offset) runEnd++;
        if (offset !== 0 && offset <= leaves && -offset <= leaves) {
          const from = offset < 0 ? Math.max(runStart, runEnd - perLeaf) : runStart;
          const to = offset < 0 ? runEnd : Math.min(runEnd, runStart + perLeaf);
          for (let i = from; i < to; i++) {
            const id = this.aroundId(tokens[i] as string);
            if (id >= 0) n = this.push(n, id);
          }
        }
        runStart = runEnd;
      }
    }
    const ids = this.scratch;
    if (n <= INSERTION_SORT_MAX) {
      // Insertion sort: for a few ids the native sort's call costs more.
      for (let i = 1; i < n; i++) {
        const id = ids[i] as number;
        let j = i - 1;
        while (j >= 0 && (ids[j] as number) > id) {
          ids[j + 1] = ids[j] as number;
          j--;
        }
        ids[j + 1] = id;
      }
    } else ids.subarray(0, n).sort();
    let distinct = 0;
    for (let i = 0; i < n; i++) if (i === 0 || ids[i] !== ids[i - 1]) ids[distinct++] = ids[i] as number;
    return ids.subarray(0, distinct);
  }

  /** The 'around' id of context word `t`; -1 for a stopword or a one-letter word. */
  private aroundId(t: string): number {
    if (t.length < 2) return -1;
    let id = this.aroundIds.get(t);
    if (id === undefined) {
      id = isStopword(t) ? -1 : this.idOf('around', t);
      this.aroundIds.set(t, id);
    }
    return id;
  }

  /** Puts `id` at index `n` of the scratch buffer (grown when full); returns the new length. */
  private push(n: number, id: number): number {
    if (n === this.scratch.length) {
      const grown = new Int32Array(n * 2);
      grown.set(this.scratch);
      this.scratch = grown;
    }
    this.scratch[n] = id;
    return n + 1;
  }

  /** Field of an id. */
  fieldOf(id: number): LinkField {
    const name = this.nameOf(id);
    return name.slice(0, name.indexOf(':')) as LinkField;
  }
}

/**
 * The selected feature ids of a training set: per field, the `selection[field]` ids that occur
 * in the most links (at least `minCount`), ties broken by the word. Returns a map id -> column.
 */
export function selectFeatures(
  words: FieldWords,
  links: readonly Int32Array[],
  selection: Readonly<FeatureSelection>,
): Map<number, number> {
  const counts = new Map<number, number>();
  for (const x of links) for (const id of x) counts.set(id, (counts.get(id) ?? 0) + 1);
  const byField: Record<LinkField, { id: number; n: number; name: string }[]> = {
    url: [],
    anchor: [],
    around: [],
  };
  for (const [id, n] of counts) {
    if (n < selection.minCount) continue;
    byField[words.fieldOf(id)].push({ id, n, name: words.nameOf(id) });
  }
  const columns = new Map<number, number>();
  for (const field of LINK_FIELDS) {
    const ranked = byField[field].sort((a, b) => b.n - a.n || (a.name < b.name ? -1 : 1));
    for (const { id } of ranked.slice(0, selection[field])) columns.set(id, columns.size);
  }
  return columns;
}
