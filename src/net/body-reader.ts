/**
 * Reads a response body under two caps: bytes on the wire and bytes after Content-Encoding is
 * undone. Decompression is streamed through node:zlib and stopped as soon as the output passes
 * its cap, so a compression bomb (100 MB of zeros in 100 KB of gzip) never fills memory.
 */
import { type Readable, Transform, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import zlib from 'node:zlib';
import { SkipUrlError } from '../common/index.js';

/** Limits and options of {@link readBody}. */
export interface BodyLimits {
  /** Cap on bytes received (after chunked transfer decoding, before content decoding). */
  maxBodyBytes: number;
  /** Cap on bytes after content decoding. */
  maxDecompressedBytes: number;
  /** Keep the first bytes up to the caps instead of failing (robots.txt: RFC 9309 2.5). */
  shouldTruncate: boolean;
}

/** A body as received and as decoded. */
export interface BodyBytes {
  /** Bytes as received (content-encoded); the same Buffer as `decoded` when not encoded. */
  raw: Buffer;
  /** Bytes after undoing Content-Encoding. */
  decoded: Buffer;
  /** Number of body bytes received. */
  wireBytes: number;
  /** True when a cap cut the body short (only with `shouldTruncate`). */
  isTruncated: boolean;
}

/** Content codings this reader undoes; what the fetcher sends in Accept-Encoding. */
export const ACCEPT_ENCODING = 'gzip, deflate, br';

/** Ends a pipeline early without an error (truncation). */
class Truncated extends Error {}

/** "deflate" is meant to be zlib-wrapped (RFC 9110 8.4.1.2) but some servers send it raw. */
function deflateDecoder(): Transform {
  let inner: zlib.Inflate | zlib.InflateRaw | undefined;
  const outer = new Transform({
    transform(chunk: Buffer, _enc, done) {
      if (!inner) {
        const [cmf = 0, flg = 0] = chunk;
        const isZlib = (cmf & 0x0f) === 8 && (cmf * 256 + flg) % 31 === 0;
        const opts = { finishFlush: zlib.constants.Z_SYNC_FLUSH };
        inner = isZlib ? zlib.createInflate(opts) : zlib.createInflateRaw(opts);
        inner.on('data', (data: Buffer) => outer.push(data));
        inner.on('error', (err) => outer.destroy(err));
      }
      inner.write(chunk, () => done());
    },
    flush(done) {
      if (!inner) return done();
      inner.once('end', () => done());
      inner.end();
    },
    destroy(err, done) {
      inner?.destroy();
      done(err);
    },
  });
  return outer;
}

function decoderFor(coding: string, url: string): Transform {
  switch (coding) {
    case 'gzip':
    case 'x-gzip':
      // Z_SYNC_FLUSH: accept a truncated stream the way browsers do.
      return zlib.createGunzip({ finishFlush: zlib.constants.Z_SYNC_FLUSH });
    case 'deflate':
      return deflateDecoder();
    case 'br':
      return zlib.createBrotliDecompress({ finishFlush: zlib.constants.BROTLI_OPERATION_FLUSH });
    default:
      throw new SkipUrlError('TRES_CONTENT_ENCODING', `Unsupported Content-Encoding "${coding}" of ${url}`, {
        context: { url },
      });
  }
}

/** Content codings of a Content-Encoding header, in the order they were applied. */
export function parseContentEncoding(value: string | undefined): string[] {
  if (!value) return [];
  return value
    .split(',')
    .map((c) => c.trim().toLowerCase())
    .filter((c) => c !== '' && c !== 'identity');
}

/**
 * Reads `body` fully under the caps.
 * @param codings content codings in the order applied (from {@link parseContentEncoding}).
 * @throws SkipUrlError `TRES_BODY_TOO_LARGE` past `maxBodyBytes`, `TRES_DECOMPRESSION_BOMB` past
 *   `maxDecompressedBytes`, `TRES_CONTENT_ENCODING` for an unknown coding,
 *   `TRES_CONTENT_DECODING` for corrupt compressed data; stream errors (timeouts, resets) as is.
 */
export async function readBody(
  body: Readable,
  codings: string[],
  limits: BodyLimits,
  url: string,
): Promise<BodyBytes> {
  const decoders = [...codings].reverse().map((c) => decoderFor(c, url));
  const isEncoded = decoders.length > 0;
  const rawChunks: Buffer[] = [];
  const decodedChunks: Buffer[] = [];
  let wireBytes = 0;
  let decodedBytes = 0;
  let isTruncated = false;
  const context = { url };

  const take = (chunks: Buffer[], chunk: Buffer, have: number, max: number, tooMuch: () => Error): void => {
    if (have + chunk.length <= max) {
      chunks.push(chunk);
      return;
    }
    if (!limits.shouldTruncate) throw tooMuch();
    chunks.push(chunk.subarray(0, max - have));
    isTruncated = true;
    throw new Truncated();
  };

  const counter = new Transform({
    transform(chunk: Buffer, _enc, done) {
      try {
        const max = isEncoded
          ? limits.maxBodyBytes
          : Math.min(limits.maxBodyBytes, limits.maxDecompressedBytes);
        take(rawChunks, chunk, wireBytes, max, () => {
          return new SkipUrlError('TRES_BODY_TOO_LARGE', `Body of ${url} exceeds maxBodyBytes (${max})`, {
            context,
          });
        });
        wireBytes += chunk.length;
        done(null, chunk);
      } catch (err) {
        wireBytes += chunk.length;
        done(err as Error);
      }
    },
  });

  const collector = new Writable({
    write(chunk: Buffer, _enc, done) {
      if (!isEncoded) return done();
      try {
        take(decodedChunks, chunk, decodedBytes, limits.maxDecompressedBytes, () => {
          const message = `Body of ${url} decompresses past maxDecompressedBytes (${limits.maxDecompressedBytes})`;
          return new SkipUrlError('TRES_DECOMPRESSION_BOMB', message, { context });
        });
        decodedBytes += chunk.length;
        done();
      } catch (err) {
        done(err as Error);
      }
    },
  });

  try {
    await pipeline([body, counter, ...decoders, collector]);
  } catch (err) {
    if (!(err instanceof Truncated)) {
      if (err instanceof SkipUrlError) throw err;
      const code = (err as { code?: unknown }).code;
      // zlib reports Z_DATA_ERROR and the like; brotli ERR__ERROR_FORMAT_* codes.
      if (typeof code === 'string' && /^(Z_|ERR__ERROR|ERR_BROTLI)/.test(code)) {
        throw new SkipUrlError('TRES_CONTENT_DECODING', `Corrupt ${codings.join(', ')} body of ${url}`, {
          cause: err,
          context,
        });
      }
      throw err;
    }
    body.destroy();
  }
  const raw = Buffer.concat(rawChunks);
  return { raw, decoded: isEncoded ? Buffer.concat(decodedChunks) : raw, wireBytes, isTruncated };
}
