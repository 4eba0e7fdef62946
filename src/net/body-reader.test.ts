import { Readable } from 'node:stream';
import { brotliCompressSync, deflateRawSync, deflateSync, gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { parseContentEncoding, readBody } from './body-reader.js';

const limits = { maxBodyBytes: 1_000_000, maxDecompressedBytes: 1_000_000, shouldTruncate: false };
const text = 'hello '.repeat(1000);

function chunks(buffer: Buffer, size = 100): Readable {
  const parts: Buffer[] = [];
  for (let i = 0; i < buffer.length; i += size) parts.push(buffer.subarray(i, i + size));
  return Readable.from(parts);
}

describe('readBody', () => {
  it.each([
    ['gzip', gzipSync(text)],
    ['deflate', deflateSync(text)],
    ['deflate', deflateRawSync(text)], // raw deflate, as some servers send it
    ['br', brotliCompressSync(text)],
    ['deflate, gzip', gzipSync(deflateSync(text))],
  ])('undoes %s', async (coding, encoded) => {
    const body = await readBody(chunks(encoded), parseContentEncoding(coding), limits, 'u');
    expect(body.decoded.toString()).toBe(text);
    expect(body.raw).toEqual(encoded);
    expect(body.wireBytes).toBe(encoded.length);
  });

  it('stops decompressing at maxDecompressedBytes', async () => {
    const bomb = gzipSync(Buffer.alloc(10_000_000));
    await expect(
      readBody(chunks(bomb, 1000), ['gzip'], { ...limits, maxDecompressedBytes: 100_000 }, 'u'),
    ).rejects.toMatchObject({ code: 'TRES_DECOMPRESSION_BOMB' });
  });

  it('reports corrupt data and unknown codings', async () => {
    await expect(
      readBody(chunks(Buffer.from('not gzip at all')), ['gzip'], limits, 'u'),
    ).rejects.toMatchObject({
      code: 'TRES_CONTENT_DECODING',
    });
    await expect(readBody(chunks(Buffer.from('x')), ['zstd'], limits, 'u')).rejects.toMatchObject({
      code: 'TRES_CONTENT_ENCODING',
    });
  });

  it('truncates instead of failing when asked', async () => {
    const body = await readBody(
      chunks(Buffer.from(text)),
      [],
      { ...limits, maxBodyBytes: 250, shouldTruncate: true },
      'u',
    );
    expect(body.decoded.length).toBe(250);
    expect(body.isTruncated).toBe(true);
  });

  it('ignores identity', () => {
    expect(parseContentEncoding('identity')).toEqual([]);
    expect(parseContentEncoding('GZIP, br')).toEqual(['gzip', 'br']);
  });
});
