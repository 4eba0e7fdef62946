/**
 * Compact encoding of a page's outlinks for the `pages.outlinks` BLOB: JSON of
 * `[url, host, domain, anchorText, depth, anchorProbability?, context?]` tuples, raw-deflated
 * (level 3). A context is `[tokens joined by spaces, offsets as one character each]` (an
 * offset o as the character o + 64), or as two arrays when a token holds a space or is empty or
 * an offset falls outside -32..62; older stores hold the arrays, which still decode.
 * The last two are there only when the crawl computed them for its strategy (TRES scores
 * anchors; ACHE, `coverage`, the apprentice and Han's crawler read link contexts): a resumed
 * frontier needs them to rebuild its links' features. A context is the bulk of a link's size,
 * so crawls whose strategy reads none store none.
 *
 * Measured on 50 links (about 7.8 KB of JSON): deflateRaw takes about 45 µs to encode and 37 µs
 * to decode with the parse, and shrinks the BLOB 4 to 8 times; at a crawl hot-path budget of
 * 500 µs per page that is cheap, and a million pages keep about 2 GB less on disk.
 * With contexts (1,500 pages of a `coverage` crawl of the DocWeb, 41 links a page) the JSON was
 * 18.4 KB a page and encoding it took 0.63 ms at zlib's default level 6 (2.84 KB stored); the
 * strings form makes it 14.5 KB, and level 3 takes about 0.40 ms for 2.95 KB (issue 25: zlib and
 * this encoding were a fifth of what `coverage` costs beyond best-first on the engine benchmark).
 */
import { deflateRawSync, inflateRawSync } from 'node:zlib';
import { TresError } from '../common/index.js';
import type { DiscoveredLink } from '../types/index.js';

/** First byte of an encoded BLOB: the format, so that another can be added later. */
const FORMAT_JSON = 0;
const FORMAT_DEFLATE_JSON = 1;

/** Links below this JSON size are stored uncompressed: deflate would not pay for its header. */
const MIN_DEFLATE_BYTES = 128;
/** zlib level of the BLOBs: level 3 is about 1.6 times as fast as the default 6, 4% larger. */
const DEFLATE_LEVEL = 3;
/** An offset o is stored as the character o + 64: -32..62 are printable ASCII. */
const OFFSET_BASE = 64;
const MIN_STRING_OFFSET = -32;
const MAX_STRING_OFFSET = 62;
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
   * (see the file's comment) or as arrays.
   */
  context?: [tokens: string, offsets: string] | [tokens: string[], offsets: number[]],
];

/** A context as two strings, or as two arrays if a token or an offset does not fit the strings. */
function contextTuple(tokens: readonly string[], offsets: Int8Array): NonNullable<LinkTuple[6]> {
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
function contextOf([tokens, offsets]: NonNullable<LinkTuple[6]>): NonNullable<DiscoveredLink['context']> {
  if (typeof tokens !== 'string' || typeof offsets !== 'string')
    return { tokens: tokens as string[], offsets: Int8Array.from(offsets as number[]) };
  const out = new Int8Array(offsets.length);
  for (let i = 0; i < offsets.length; i++) out[i] = offsets.charCodeAt(i) - OFFSET_BASE;
  return { tokens: offsets.length === 0 ? [] : tokens.split(' '), offsets: out };
}

/**
 * Encodes outlinks into a BLOB for the `pages.outlinks` column. The anchor probability and the
 * link context ride along when the crawl computed them (a strategy that asked for them reads
 * them back on resume); a reader of an older store finds them absent.
 */
export function encodeOutlinks(links: readonly DiscoveredLink[]): Buffer {
  const tuples: LinkTuple[] = links.map((l) => {
    const t: LinkTuple = [l.url, l.host, l.domain, l.anchorText, l.depth];
    if (l.anchorProbability !== undefined || l.context !== undefined) t.push(l.anchorProbability ?? null);
    if (l.context !== undefined) t.push(contextTuple(l.context.tokens, l.context.offsets));
    return t;
  });
  const json = Buffer.from(JSON.stringify(tuples), 'utf8');
  if (json.byteLength < MIN_DEFLATE_BYTES) return Buffer.concat([Buffer.of(FORMAT_JSON), json]);
  return Buffer.concat([Buffer.of(FORMAT_DEFLATE_JSON), deflateRawSync(json, { level: DEFLATE_LEVEL })]);
}

/**
 * Decodes a BLOB written by {@link encodeOutlinks}.
 * @throws TresError `TRES_STORE_CORRUPT` if the BLOB has an unknown format or does not decode.
 */
export function decodeOutlinks(blob: Uint8Array | null | undefined): DiscoveredLink[] {
  if (!blob || blob.byteLength === 0) return [];
  const body = Buffer.from(blob.buffer, blob.byteOffset + 1, blob.byteLength - 1);
  let tuples: LinkTuple[];
  try {
    if (blob[0] === FORMAT_JSON) tuples = JSON.parse(body.toString('utf8'));
    else if (blob[0] === FORMAT_DEFLATE_JSON) tuples = JSON.parse(inflateRawSync(body).toString('utf8'));
    else throw new Error(`unknown outlinks format ${blob[0]}`);
  } catch (cause) {
    throw new TresError('TRES_STORE_CORRUPT', 'Cannot decode the outlinks of a stored page', { cause });
  }
  return tuples.map(([url, host, domain, anchorText, depth, anchorProbability, context]) => {
    const link: DiscoveredLink = { url, host, domain, anchorText, depth };
    if (typeof anchorProbability === 'number') link.anchorProbability = anchorProbability;
    if (context !== undefined) link.context = contextOf(context);
    return link;
  });
}
