import { describe, expect, it } from 'vitest';
import { decodeText, detectCharset, parseContentType, sniffMime } from './charset.js';

describe('parseContentType', () => {
  it('lowercases the type and reads a quoted charset', () => {
    expect(parseContentType('Text/HTML; Charset="ISO-8859-1"; foo=bar')).toEqual({
      mime: 'text/html',
      charset: 'iso-8859-1',
    });
    expect(parseContentType(undefined)).toEqual({ mime: '', charset: undefined });
  });
});

describe('detectCharset', () => {
  const html = (s: string) => Buffer.from(s, 'latin1');

  it('prefers a BOM over the header, as browsers do', () => {
    const body = Buffer.from([0xff, 0xfe, 0x41, 0x00]);
    expect(detectCharset(body, 'iso-8859-1', 'text/html')).toEqual({ charset: 'utf-16le', source: 'bom' });
    expect(decodeText(body, 'utf-16le')).toBe('A');
  });

  it('maps header labels to WHATWG encodings', () => {
    expect(detectCharset(html('x'), 'latin1', 'text/html').charset).toBe('windows-1252');
    expect(detectCharset(html('x'), 'Shift_JIS', 'text/html').charset).toBe('shift_jis');
  });

  it('reads <meta> only in the first 4 KB of HTML', () => {
    expect(detectCharset(html('<meta charset=koi8-r>'), undefined, 'text/html')).toEqual({
      charset: 'koi8-r',
      source: 'meta',
    });
    const late = html(`${' '.repeat(5000)}<meta charset=koi8-r>`);
    expect(detectCharset(late, undefined, 'text/html').charset).toBe('utf-8');
    expect(detectCharset(html('<meta charset=koi8-r>'), undefined, 'text/plain').charset).toBe('utf-8');
  });

  it('treats a <meta> claiming UTF-16 as UTF-8', () => {
    expect(detectCharset(html('<meta charset="utf-16">'), undefined, 'text/html').charset).toBe('utf-8');
  });

  it('reads the XML declaration of XHTML', () => {
    const body = html('<?xml version="1.0" encoding="ISO-8859-2"?><html/>');
    expect(detectCharset(body, undefined, 'application/xhtml+xml').charset).toBe('iso-8859-2');
  });

  it('falls back to windows-1252 when only unknown labels were given', () => {
    expect(detectCharset(html('<meta charset=bogus>'), 'nonsense', 'text/html')).toEqual({
      charset: 'windows-1252',
      source: 'fallback',
    });
    expect(decodeText(html('caf\xe9'), 'no-such-encoding')).toBe('café');
  });

  it('decodes bad bytes without throwing', () => {
    expect(decodeText(Buffer.from([0x61, 0xff, 0x62]), 'utf-8')).toBe('a\ufffdb');
  });
});

describe('sniffMime', () => {
  it('recognises HTML and nothing else', () => {
    expect(sniffMime(Buffer.from('\ufeff  <!doctype html><p>'))).toBe('text/html');
    expect(sniffMime(Buffer.from('<HTML>'))).toBe('text/html');
    expect(sniffMime(Buffer.from('%PDF-1.4'))).toBe('application/octet-stream');
  });
});
