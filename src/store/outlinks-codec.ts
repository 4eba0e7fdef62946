/**
 * Compact encoding of a page's outlinks for the `pages.outlinks` BLOB: JSON of
 * `[url, host, domain, anchorText, depth, anchorProbability?, context?]` tuples, raw-deflated.
 * The last two are there only when the crawl computed them for its strategy (TRES scores
 * anchors; ACHE, `coverage`, the apprentice and Han's crawler read link contexts): a resumed
 * frontier needs them to rebuild its links' features. A context is the bulk of a link's size,
 * so crawls whose strategy reads none store none.
 *
 * Measured on 50 links (about 7.8 KB of JSON): deflateRaw takes about 45 µs to encode and 37 µs
 * to decode with the parse, and shrinks the BLOB 4 to 8 times; at a crawl hot-path budget of
 * 500 µs per page that is cheap, and a million pages keep about 2 GB less on disk.
 */
import { deflateRawSync, inflateRawSync } from 'node:zlib';
import { TresError } from '../common/index.js';
import type { DiscoveredLink } from '../types/index.js';

/** First byte of an encoded BLOB: the format, so that another can be added later. */
const FORMAT_JSON = 0;
const FORMAT_DEFLATE_JSON = 1;

/** Links below this JSON size are stored uncompressed: deflate would not pay for its header. */
const MIN_DEFLATE_BYTES = 128;

type LinkTuple = [
  url: string,
  host: string,
  domain: string,
  anchorText: string,
  depth: number,
  /** The anchor's P(relevant) when it was scored (null: not scored), for a resumed frontier. */
  anchorProbability?: number | null,
  /** The link's context tokens and their DOM offsets, when the strategy asked for them. */
  context?: [tokens: string[], offsets: number[]],
];

/**
 * Encodes outlinks into a BLOB for the `pages.outlinks` column. The anchor probability and the
 * link context ride along when the crawl computed them (a strategy that asked for them reads
 * them back on resume); a reader of an older store finds them absent.
 */
export function encodeOutlinks(links: readonly DiscoveredLink[]): Buffer {
  const tuples: LinkTuple[] = links.map((l) => {
    const t: LinkTuple = [l.url, l.host, l.domain, l.anchorText, l.depth];
    if (l.anchorProbability !== undefined || l.context !== undefined) t.push(l.anchorProbability ?? null);
    if (l.context !== undefined) t.push([l.context.tokens, Array.from(l.context.offsets)]);
    return t;
  });
  const json = Buffer.from(JSON.stringify(tuples), 'utf8');
  if (json.byteLength < MIN_DEFLATE_BYTES) return Buffer.concat([Buffer.of(FORMAT_JSON), json]);
  return Buffer.concat([Buffer.of(FORMAT_DEFLATE_JSON), deflateRawSync(json)]);
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
    if (context !== undefined) link.context = { tokens: context[0], offsets: Int8Array.from(context[1]) };
    return link;
  });
}
