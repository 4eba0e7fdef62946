/**
 * Compact encoding of a page's outlinks for the `pages.outlinks` BLOB: JSON of
 * `[url, host, domain, anchorText, depth, anchorProbability?, context?]` tuples, raw-deflated
 * (level 3). A context is `[tokens joined by spaces, offsets as one character each]` (an
 * offset o as the character o + 64), or as two arrays when a token holds a space or is empty or
 * an offset falls outside -32..62; older stores hold the arrays, which still decode.
 * The last two are there only when the crawl computed them for its strategy (TRES scores
 * anchors; ACHE, `coverage`, the apprentice and Han's crawler read link contexts): a resumed
 * frontier needs them to rebuild its links' features. A context is the bulk of a link's size,
 * so crawls whose strategy reads none store none, and a strategy may drop those of the links it
 * passes over (`Strategy.dropUnreadContexts`: `coverage`, for links found again and kept as queued).
 *
 * Measured on 50 links (about 7.8 KB of JSON): deflateRaw takes about 45 µs to encode and 37 µs
 * to decode with the parse, and shrinks the BLOB 4 to 8 times; at a crawl hot-path budget of
 * 500 µs per page that is cheap, and a million pages keep about 2 GB less on disk.
 * With contexts (1,500 pages of a `coverage` crawl of the DocWeb, 41 links a page) the JSON was
 * 18.4 KB a page and encoding it took 0.63 ms at zlib's default level 6 (2.84 KB stored); the
 * strings form makes it 14.5 KB, and level 3 takes about 0.40 ms for 2.95 KB (zlib and
 * this encoding were a fifth of what `coverage` costs beyond best-first on the engine benchmark).
 * Neighbouring links share most of their context (each takes the leaves within dMax of it), so
 * contexts that come with their page's words (`LinkContext.source`) are stored as runs of those
 * words, each word once per page: `[page words joined by spaces, tuples]` (formats 2 and 3). On
 * 3,000 pages of the engine benchmark's web (21 links a page) that halves the JSON (4.9 KB a page
 * against 10.2 KB) and encoding takes about a fifth less time; the stored size barely changes
 * (deflate found the repeats too), and deflating the page's distinct words is most of what is left.
 * Deflating in libuv's thread pool instead (zlib's callback API, awaited before the commit) was
 * measured and not kept: on 2,000 BLOBs of a DocWeb `coverage` crawl (5.7 KB of JSON each) the
 * callback API's stream machinery kept the main thread busy 73-148 us a BLOB against 79-87 us
 * for all of deflateRawSync, and 3,000-page DocWeb crawls at K = 1 took 9% longer.
 */
import { deflateRawSync, inflateRawSync } from 'node:zlib';
import { TresError } from '../common/index.js';
import { LazyLinkContext } from '../html/index.js';
import type { DiscoveredLink } from '../types/index.js';

/** First byte of an encoded BLOB: the format, so that another can be added later. */
const FORMAT_JSON = 0;
const FORMAT_DEFLATE_JSON = 1;
/** JSON `[pageWords, tuples]`: some contexts are runs of the page's words (see {@link encodeOutlinks}). */
const FORMAT_WORDS_JSON = 2;
const FORMAT_DEFLATE_WORDS_JSON = 3;

/** Links below this JSON size are stored uncompressed: deflate would not pay for its header. */
const MIN_DEFLATE_BYTES = 128;
/** zlib level of the BLOBs: level 3 is about 1.6 times as fast as the default 6, 4% larger. */
const DEFLATE_LEVEL = 3;
/** An offset o is stored as the character o + 64: -32..62 are printable ASCII. */
const OFFSET_BASE = 64;
const MIN_STRING_OFFSET = -32;
const MAX_STRING_OFFSET = 62;
/**
 * A link's context as runs of the page's words: [gap, length, offset] triples, a run being the
 * `length` words from `gap` past the previous run's end (the first from 0) with DOM offset `offset`.
 */
type ContextRuns = number[];
type LinkTuple = [
  url: string,
  host: string,
  domain: string,
  anchorText: string,
  depth: number,
  /** The anchor's P(relevant) when it was scored (null: not scored), for a resumed frontier. */
  anchorProbability?: number | null,
  /**
   * The link's context tokens and their DOM offsets, when the strategy asked for them: joined
   * (see the file's comment), as arrays, or as runs of the page's words.
   */
  context?: [tokens: string, offsets: string] | [tokens: string[], offsets: number[]] | ContextRuns,
];

/**
 * The words of the page the links' contexts were taken from (a context's `source`) that some
 * context uses, in page order, and the index among them of each page word (-1: unused); undefined
 * if no context has a source.
 */
function usedPageWords(
  links: readonly DiscoveredLink[],
): { page: readonly string[]; used: string[]; index: Int32Array } | undefined {
  const page = links.find((l) => l.context?.source !== undefined)?.context?.source?.words;
  if (page === undefined) return undefined;
  const index = new Int32Array(page.length).fill(-1);
  for (const l of links) {
    const source = l.context?.source;
    if (source?.words !== page) continue;
    const spans = source.spans;
    for (let s = 0; s < spans.length; s += 3) index.fill(0, spans[s] as number, spans[s + 1] as number);
  }
  const used: string[] = [];
  for (let i = 0; i < page.length; i++) if (index[i] === 0) index[i] = used.push(page[i] as string) - 1;
  return { page, used, index };
}

/** A context's runs of the page's words (see {@link ContextRuns}), renumbered by `index`. */
function contextRuns(spans: readonly number[], index: Int32Array): ContextRuns {
  const runs: ContextRuns = [];
  let end = 0;
  for (let s = 0; s < spans.length; s += 3) {
    const length = (spans[s + 1] as number) - (spans[s] as number);
    if (length === 0) continue; // a leaf without words gives no token
    const start = index[spans[s] as number] as number;
    runs.push(start - end, length, spans[s + 2] as number);
    end = start + length;
  }
  return runs;
}

/**
 * Reads {@link contextRuns}' form back against the stored page words: a context whose source is
 * those words (as the parser's are), its tokens and offsets built on first read. A resume's replay
 * reads each link's words through the source, once per page word (`FieldWords.encodeView`), and
 * never builds the tokens of the links a strategy passes over.
 */
function contextOfRuns(runs: ContextRuns, words: readonly string[]): NonNullable<DiscoveredLink['context']> {
  const spans = new Array<number>(runs.length);
  let end = 0;
  for (let r = 0; r < runs.length; r += 3) {
    const start = end + (runs[r] as number);
    end = start + (runs[r + 1] as number);
    spans[r] = start;
    spans[r + 1] = end;
    spans[r + 2] = runs[r + 2] as number;
  }
  return new LazyLinkContext(words, spans);
}

/** A context as two strings, or as two arrays if a token or an offset does not fit the strings. */
function contextTuple(
  tokens: readonly string[],
  offsets: Int8Array,
): [string, string] | [string[], number[]] {
  let codes = '';
  for (let i = 0; i < offsets.length; i++) {
    const o = offsets[i] as number;
    const t = tokens[i] as string;
    if (o < MIN_STRING_OFFSET || o > MAX_STRING_OFFSET || t === '' || t.includes(' '))
      return [[...tokens], Array.from(offsets)];
    codes += String.fromCharCode(o + OFFSET_BASE);
  }
  return [tokens.join(' '), codes];
}

/** Reads {@link contextTuple}'s form back. */
function contextOf(
  context: NonNullable<LinkTuple[6]>,
  words: readonly string[],
): NonNullable<DiscoveredLink['context']> {
  // Runs are numbers (none for a context without words); the other forms are pairs of a string or an array.
  if (context.length === 0 || typeof context[0] === 'number')
    return contextOfRuns(context as ContextRuns, words);
  const [tokens, offsets] = context;
  if (typeof tokens !== 'string' || typeof offsets !== 'string')
    return { tokens: tokens as string[], offsets: Int8Array.from(offsets as number[]) };
  const out = new Int8Array(offsets.length);
  for (let i = 0; i < offsets.length; i++) out[i] = offsets.charCodeAt(i) - OFFSET_BASE;
  return { tokens: offsets.length === 0 ? [] : tokens.split(' '), offsets: out };
}

/**
 * Encodes outlinks into a BLOB for the `pages.outlinks` column. The anchor probability and the
 * link context ride along when the crawl computed them (a strategy that asked for them reads
 * them back on resume); a reader of an older store finds them absent. Contexts taken from one
 * page (their `source`) are stored as runs of that page's words, each word once: a page's links
 * share most of their context words.
 */
export function encodeOutlinks(links: readonly DiscoveredLink[]): Buffer {
  const shared = usedPageWords(links);
  const tuples: LinkTuple[] = links.map((l) => {
    const t: LinkTuple = [l.url, l.host, l.domain, l.anchorText, l.depth];
    if (l.anchorProbability !== undefined || l.context !== undefined) t.push(l.anchorProbability ?? null);
    const context = l.context;
    if (context === undefined) return t;
    if (shared !== undefined && context.source?.words === shared.page)
      t.push(contextRuns(context.source.spans, shared.index));
    else t.push(contextTuple(context.tokens, context.offsets));
    return t;
  });
  // The page words joined by spaces unless one holds a space or is empty (then as an array).
  const words = shared?.used.some((w) => w === '' || w.includes(' ')) ? shared.used : shared?.used.join(' ');
  const json = Buffer.from(JSON.stringify(shared === undefined ? tuples : [words, tuples]), 'utf8');
  const format = shared === undefined ? FORMAT_JSON : FORMAT_WORDS_JSON;
  if (json.byteLength < MIN_DEFLATE_BYTES) return Buffer.concat([Buffer.of(format), json]);
  return Buffer.concat([Buffer.of(format + 1), deflateRawSync(json, { level: DEFLATE_LEVEL })]);
}

/**
 * Decodes a BLOB written by {@link encodeOutlinks}.
 * @throws TresError `TRES_STORE_CORRUPT` if the BLOB has an unknown format or does not decode.
 */
export function decodeOutlinks(blob: Uint8Array | null | undefined): DiscoveredLink[] {
  if (!blob || blob.byteLength === 0) return [];
  const body = Buffer.from(blob.buffer, blob.byteOffset + 1, blob.byteLength - 1);
  const format = blob[0] as number;
  let tuples: LinkTuple[];
  let words: readonly string[] = [];
  try {
    if (format > FORMAT_DEFLATE_WORDS_JSON) throw new Error(`unknown outlinks format ${format}`);
    const isDeflated = format === FORMAT_DEFLATE_JSON || format === FORMAT_DEFLATE_WORDS_JSON;
    const parsed = JSON.parse((isDeflated ? inflateRawSync(body) : body).toString('utf8'));
    if (format < FORMAT_WORDS_JSON) tuples = parsed;
    else {
      const [joined, linkTuples] = parsed as [string | string[], LinkTuple[]];
      words = typeof joined !== 'string' ? joined : joined === '' ? [] : joined.split(' ');
      tuples = linkTuples;
    }
  } catch (cause) {
    throw new TresError('TRES_STORE_CORRUPT', 'Cannot decode the outlinks of a stored page', { cause });
  }
  return tuples.map(([url, host, domain, anchorText, depth, anchorProbability, context]) => {
    const link: DiscoveredLink = { url, host, domain, anchorText, depth };
    if (typeof anchorProbability === 'number') link.anchorProbability = anchorProbability;
    if (context !== undefined) link.context = contextOf(context, words);
    return link;
  });
}
