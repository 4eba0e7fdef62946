import { createHash } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readWarc, removeTempDirs, tempDir } from './test-helpers.js';
import {
  base32,
  buildExchangeRecords,
  buildWarcinfoRecord,
  sha1Digest,
  type WarcPayload,
} from './warc-record.js';

afterAll(removeTempDirs);

const payload: WarcPayload = {
  url: 'https://example.org/a/b?x=1',
  requestHeaders: 'User-Agent: tres\r\nAccept: */*\r\n',
  statusLine: 'HTTP/1.1 200 OK',
  responseHeaders: {
    'Content-Type': 'text/html',
    'Content-Encoding': 'br',
    'Content-Length': '17',
    'Set-Cookie': ['a=1', 'b=2'],
  },
  body: Buffer.from('<html>héllo\r\n\r\n</html>', 'utf8'),
  remoteIp: '10.0.0.7',
  fetchDate: Date.UTC(2024, 0, 2, 3, 4, 5, 678),
};

describe('warc records', () => {
  it('encodes base32 as RFC 4648 without padding', () => {
    expect(base32(Buffer.from('foobar'))).toBe('MZXW6YTBOI');
    expect(base32(Buffer.from('f'))).toBe('MY');
    expect(sha1Digest(Buffer.from(''))).toBe('sha1:3I42H3S6NNFQ2MSVX7XZKYAYSCX5QBYJ');
  });

  it('writes warcinfo, request and response records that warcio reads back intact', async () => {
    const path = join(tempDir(), 'test.warc.gz');
    const info = buildWarcinfoRecord('test.warc.gz', payload.fetchDate, {
      software: 'tres/test',
      seed: '42',
    });
    writeFileSync(path, Buffer.concat([info, buildExchangeRecords(payload, 0.75)]));
    const records = await readWarc(path);
    expect(records.map((r) => r.type)).toEqual(['warcinfo', 'request', 'response']);
    const [warcinfo, request, response] = records as [
      (typeof records)[0],
      (typeof records)[0],
      (typeof records)[0],
    ];

    expect(warcinfo.payload.toString()).toContain('software: tres/test\r\n');
    expect(warcinfo.headers.get('warc-filename')).toBe('test.warc.gz');

    expect(request.headers.get('warc-target-uri')).toBe(payload.url);
    expect(request.payload.byteLength).toBe(0);
    expect(request.httpHeaders.get('host')).toBe('example.org');
    expect(request.httpHeaders.get('user-agent')).toBe('tres');

    expect(response.headers.get('warc-target-uri')).toBe(payload.url);
    expect(response.headers.get('warc-date')).toBe('2024-01-02T03:04:05.678Z');
    expect(response.headers.get('warc-ip-address')).toBe('10.0.0.7');
    expect(response.headers.get('warc-tres-relevance')).toBe('0.75');
    expect(response.httpStatus).toBe(200);
    expect(response.payload.equals(Buffer.from(payload.body))).toBe(true);
    const sha1 = createHash('sha1').update(payload.body).digest();
    expect(response.headers.get('warc-payload-digest')).toBe(`sha1:${base32(sha1)}`);
    // The stored body is decoded: the wire headers are kept under another name.
    expect(response.httpHeaders.get('content-encoding')).toBeUndefined();
    expect(response.httpHeaders.get('x-archive-orig-content-encoding')).toBe('br');
    expect(response.httpHeaders.get('content-length')).toBe(String(payload.body.byteLength));
    expect(response.httpHeaders.get('set-cookie')).toBe('a=1, b=2');

    expect(request.headers.get('warc-concurrent-to')).toBe(response.headers.get('warc-record-id'));
    expect(response.headers.get('warc-concurrent-to')).toBe(request.headers.get('warc-record-id'));
    expect(response.headers.get('warc-record-id')).toMatch(/^<urn:uuid:[0-9a-f-]{36}>$/);
  });

  it('marks a truncated body with WARC-Truncated', async () => {
    const path = join(tempDir(), 'truncated.warc.gz');
    writeFileSync(path, buildExchangeRecords({ ...payload, truncated: 'length' }, 0));
    const records = await readWarc(path);
    expect(records[1]?.headers.get('warc-truncated')).toBe('length');
    expect(records[0]?.headers.get('warc-truncated')).toBeUndefined();
  });

  it('does not let a line break in a value inject a header', async () => {
    const path = join(tempDir(), 'inject.warc.gz');
    const evil = { ...payload, url: 'https://example.org/x', responseHeaders: 'X-A: 1\r\nX-B: 2' };
    const info = buildWarcinfoRecord('inject.warc.gz', 0, { note: 'a\r\nWARC-Type: response' });
    writeFileSync(path, Buffer.concat([info, buildExchangeRecords(evil, 0)]));
    const records = await readWarc(path);
    expect(records.map((r) => r.type)).toEqual(['warcinfo', 'request', 'response']);
    expect(records[0]?.payload.toString()).toBe('note: a WARC-Type: response\r\n');
    expect(records[2]?.httpHeaders.get('x-b')).toBe('2');
  });
});
