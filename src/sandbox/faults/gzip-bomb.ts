/**
 * A gzip bomb: a small gzip stream that inflates to a huge run of zero bytes, for testing a
 * crawler's limit on decompressed size.
 *
 * Deflating 1 GiB takes seconds, so the stream is assembled instead: one 1 MiB segment of zeros is
 * deflated once and ended with a full flush (byte-aligned, history reset), which makes every
 * segment's output identical; the segment is repeated, a final block holds the remainder, and the
 * gzip header and trailer (CRC-32 and size, RFC 1952) wrap it. 1 GiB -> about 1 MB, ~0.3 s once.
 */
import { constants, crc32, createDeflateRaw, deflateRawSync } from 'node:zlib';
import { ConfigError } from '../../common/index.js';

const SEGMENT_BYTES = 1024 * 1024;
const cache = new Map<number, Promise<Buffer>>();

/** One deflated segment of zeros ending in a full flush (so copies can be concatenated). */
async function flushedSegment(zeros: Buffer): Promise<Buffer> {
  const deflate = createDeflateRaw({ level: 9, memLevel: 9 });
  const parts: Buffer[] = [];
  deflate.on('data', (chunk: Buffer) => parts.push(chunk));
  deflate.write(zeros);
  await new Promise<void>((resolve) => deflate.flush(constants.Z_FULL_FLUSH, () => resolve()));
  deflate.destroy();
  return Buffer.concat(parts);
}

async function build(inflatedBytes: number): Promise<Buffer> {
  const zeros = Buffer.alloc(SEGMENT_BYTES);
  const segment = await flushedSegment(zeros);
  const count = Math.floor(inflatedBytes / SEGMENT_BYTES);
  const tail = deflateRawSync(Buffer.alloc(inflatedBytes % SEGMENT_BYTES)); // ends with the final block
  let crc = 0;
  for (let i = 0; i < count; i++) crc = crc32(zeros, crc);
  crc = crc32(Buffer.alloc(inflatedBytes % SEGMENT_BYTES), crc);
  // RFC 1952: magic, CM=8 (deflate), no flags, mtime 0, XFL=2 (best compression), OS=255 (unknown).
  const header = Buffer.from([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 2, 255]);
  const trailer = Buffer.alloc(8);
  trailer.writeUInt32LE(crc >>> 0, 0);
  trailer.writeUInt32LE(inflatedBytes % 2 ** 32, 4); // ISIZE is the size modulo 2^32
  const out = Buffer.allocUnsafe(header.length + count * segment.length + tail.length + trailer.length);
  let at = header.copy(out, 0);
  for (let i = 0; i < count; i++) at += segment.copy(out, at);
  at += tail.copy(out, at);
  trailer.copy(out, at);
  return out;
}

/**
 * A gzip stream (RFC 1952, one member) that inflates to `inflatedBytes` zero bytes. Built once per
 * size and cached in memory for the life of the process.
 * @param inflatedBytes size after decompression, in bytes. @default 1 GiB
 * @throws ConfigError if `inflatedBytes` is not an integer in 0..2^40.
 */
export function gzipBomb(inflatedBytes = 1024 ** 3): Promise<Buffer> {
  if (!Number.isInteger(inflatedBytes) || inflatedBytes < 0 || inflatedBytes > 2 ** 40) {
    throw new ConfigError(`gzip bomb size must be an integer in 0..2^40 bytes, got ${inflatedBytes}`);
  }
  let promise = cache.get(inflatedBytes);
  if (!promise) {
    promise = build(inflatedBytes);
    cache.set(inflatedBytes, promise);
  }
  return promise;
}
