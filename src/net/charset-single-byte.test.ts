import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { canonicalEncoding, decodeText, detectCharset } from './charset.js';

/** What the WHATWG indexes of the 28 legacy single-byte encodings decode bytes 0x80-0xFF to. */
const { indexes } = JSON.parse(
  readFileSync(new URL('./whatwg-single-byte-indexes.json', import.meta.url), 'utf8'),
) as { indexes: Record<string, string> };

const ALL_BYTES = Buffer.from(Array.from({ length: 256 }, (_, i) => i));

describe('decodeText on the legacy single-byte encodings', () => {
  it('holds all 28 encodings of the Encoding Standard', () => {
    expect(Object.keys(indexes)).toHaveLength(28);
  });

  for (const [name, index] of Object.entries(indexes)) {
    it(`decodes every byte of ${name} as its WHATWG index says, whatever the Node version`, () => {
      const ascii = String.fromCharCode(...Array.from({ length: 128 }, (_, i) => i));
      expect(index).toHaveLength(128);
      // Compared as code points so a failure names the bytes that differ.
      const codePoints = (s: string) => [...s].map((c) => (c.codePointAt(0) as number).toString(16));
      expect(codePoints(decodeText(ALL_BYTES, name))).toEqual(codePoints(ascii + index));
      expect(canonicalEncoding(name)).toBe(name.toLowerCase());
    });
  }

  it('reads windows-1252 punctuation in a page labelled latin1 (nodejs/node#60888)', () => {
    const body = Buffer.from([0x80, 0x20, 0x93, 0x71, 0x94, 0x20, 0x96]);
    const { charset } = detectCharset(body, 'iso-8859-1', 'text/html');
    expect(charset).toBe('windows-1252');
    expect(decodeText(body, charset)).toBe('\u20ac \u201cq\u201d \u2013');
  });
});
