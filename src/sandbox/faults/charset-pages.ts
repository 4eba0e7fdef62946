/**
 * Pages of `charset.fault.test`: known text in legacy encodings, declared in the header, in a
 * `<meta>`, by a BOM, or wrongly. Bytes are built here without any encoding library.
 *
 * Pitfall (easy to overlook when testing a decoder): Node 20.18.3+ decodes `windows-1252` as
 * ISO-8859-1, so bytes 0x80-0x9F come out as C1 controls instead of `€ “ ” —`
 * (nodejs/node#56542, #60888). A decoder needs its own table for that range.
 */

/** One page of the charset site. */
export interface CharsetPage {
  /** URL path on `charset.fault.test`. */
  path: string;
  /** The encoding the bytes are really in. */
  encoding: 'windows-1252' | 'iso-8859-1' | 'utf-8' | 'shift_jis';
  /** Where the charset is (or is wrongly) declared. */
  declaredIn: 'meta' | 'wrong-header' | 'bom' | 'header';
  /** Content-Type header sent. */
  contentType: string;
  /** The text of the page's `<p id="text">`, as a correct decoder reads it. */
  expectedText: string;
  /** The page as sent. */
  body: Buffer;
}

/** Windows-1252 bytes 0x80-0x9F that differ from ISO-8859-1 (WHATWG index-windows-1252). */
const CP1252_HIGH: Readonly<Record<string, number>> = {
  '€': 0x80,
  '‚': 0x82,
  ƒ: 0x83,
  '„': 0x84,
  '…': 0x85,
  '†': 0x86,
  '‡': 0x87,
  ˆ: 0x88,
  '‰': 0x89,
  Š: 0x8a,
  '‹': 0x8b,
  Œ: 0x8c,
  Ž: 0x8e,
  '‘': 0x91,
  '’': 0x92,
  '“': 0x93,
  '”': 0x94,
  '•': 0x95,
  '–': 0x96,
  '—': 0x97,
  '˜': 0x98,
  '™': 0x99,
  š: 0x9a,
  '›': 0x9b,
  œ: 0x9c,
  ž: 0x9e,
  Ÿ: 0x9f,
};

/**
 * Encodes text as windows-1252.
 * @throws RangeError for a character windows-1252 cannot hold.
 */
export function encodeWindows1252(text: string): Buffer {
  const out = Buffer.alloc(text.length);
  let at = 0;
  for (const ch of text) {
    const code = ch.codePointAt(0) as number;
    const byte = CP1252_HIGH[ch] ?? (code < 0x80 || (code >= 0xa0 && code <= 0xff) ? code : undefined);
    if (byte === undefined) throw new RangeError(`'${ch}' has no windows-1252 byte`);
    out[at++] = byte;
  }
  return out.subarray(0, at);
}

/** Decodes windows-1252 correctly (Node's TextDecoder does not; see the file comment). */
export function decodeWindows1252(bytes: Uint8Array): string {
  const high = new Map(Object.entries(CP1252_HIGH).map(([ch, byte]) => [byte, ch]));
  let text = '';
  for (const byte of bytes) text += high.get(byte) ?? String.fromCharCode(byte);
  return text;
}

function page(metaTag: string, title: string, text: string): string {
  return (
    `<!DOCTYPE html>\n<html><head>${metaTag}<title>${title}</title></head>\n` +
    `<body><p id="text">${text}</p>\n<p><a href="/">Back to the index</a></p></body></html>\n`
  );
}

const CP1252_TEXT = 'Café prices: 5 € for a “crème brûlée” — naïve façade';
const LATIN1_TEXT = 'Ærøskøbing: Straße, Größe, naïve Señor';
const UTF8_TEXT = 'Grüße aus Zürich — 日本語 — 🎵 music';
const SJIS_TEXT = '日本語のページです。文字コードはShift_JISです。';
/** Shift_JIS bytes of SJIS_TEXT (checked against ICU's decoder in the tests). */
const SJIS_BYTES = Buffer.concat([
  Buffer.from('93fa967b8cea82cc8379815b835782c582b7814295b68e9a8352815b836882cd', 'hex'),
  Buffer.from('Shift_JIS', 'ascii'),
  Buffer.from('82c582b78142', 'hex'),
]);

/** The pages of `charset.fault.test`, built once. */
export const CHARSET_PAGES: readonly CharsetPage[] = [
  {
    path: '/windows-1252.html',
    encoding: 'windows-1252',
    declaredIn: 'meta',
    contentType: 'text/html',
    expectedText: CP1252_TEXT,
    body: encodeWindows1252(
      page(
        '<meta http-equiv="Content-Type" content="text/html; charset=windows-1252">',
        'windows-1252',
        CP1252_TEXT,
      ),
    ),
  },
  {
    // The header wins over the meta tag (WHATWG encoding sniffing), so a standards decoder shows
    // U+FFFD here; a crawler may choose to fall back when the header's UTF-8 does not validate.
    path: '/latin1-wrong-header.html',
    encoding: 'iso-8859-1',
    declaredIn: 'wrong-header',
    contentType: 'text/html; charset=utf-8',
    expectedText: LATIN1_TEXT,
    body: Buffer.from(page('<meta charset="iso-8859-1">', 'ISO-8859-1 sent as UTF-8', LATIN1_TEXT), 'latin1'),
  },
  {
    path: '/utf8-bom.html',
    encoding: 'utf-8',
    declaredIn: 'bom',
    contentType: 'text/html',
    expectedText: UTF8_TEXT,
    body: Buffer.concat([
      Buffer.from([0xef, 0xbb, 0xbf]),
      Buffer.from(page('', 'UTF-8 with BOM', UTF8_TEXT), 'utf8'),
    ]),
  },
  {
    path: '/shift-jis.html',
    encoding: 'shift_jis',
    declaredIn: 'header',
    contentType: 'text/html; charset=Shift_JIS',
    expectedText: SJIS_TEXT,
    body: Buffer.concat([
      Buffer.from(
        '<!DOCTYPE html>\n<html lang="ja"><head><title>Shift_JIS</title></head>\n<body><p id="text">',
        'ascii',
      ),
      SJIS_BYTES,
      Buffer.from('</p>\n<p><a href="/">Back to the index</a></p></body></html>\n', 'ascii'),
    ]),
  },
];
