/**
 * Media types and character encodings of responses: parse Content-Type, sniff HTML that came
 * without one, find the charset (BOM, header, `<meta>`/XML declaration) and decode the body the
 * way browsers do (WHATWG Encoding: labels such as `latin1` mean windows-1252; decoding never
 * throws, bad bytes become U+FFFD).
 *
 * Labels and decoding come from @exodus/bytes, not Node's TextDecoder: Node's ICU tables are
 * wrong on some versions (windows-1252 0x80-0x9F decoded as C1 controls, nodejs/node#60888;
 * KOI8-U, windows-874, -1253, -1255 off by a few bytes) and some lack ISO-8859-16 altogether.
 * `charset-single-byte.test.ts` holds every single-byte encoding to the WHATWG indexes.
 */
import { normalizeEncoding, TextDecoder as WhatwgTextDecoder } from '@exodus/bytes/encoding.js';

/** A parsed Content-Type header. */
export interface ContentType {
  /** Lowercased `type/subtype` without parameters; '' when the header is missing or empty. */
  mime: string;
  /** The `charset` parameter as given (lowercased, unquoted), if any. */
  charset: string | undefined;
}

/** Parses a Content-Type header value (RFC 9110 section 8.3). */
export function parseContentType(value: string | undefined): ContentType {
  if (!value) return { mime: '', charset: undefined };
  const [type = '', ...params] = value.split(';');
  let charset: string | undefined;
  for (const param of params) {
    const eq = param.indexOf('=');
    if (eq < 0 || param.slice(0, eq).trim().toLowerCase() !== 'charset') continue;
    charset = param
      .slice(eq + 1)
      .trim()
      .replace(/^"(.*)"$/, '$1')
      .toLowerCase();
    break;
  }
  return { mime: type.trim().toLowerCase(), charset: charset || undefined };
}

/** True for media types whose body is text worth decoding (HTML, XML, JSON, plain text). */
export function isTextual(mime: string): boolean {
  return (
    mime.startsWith('text/') ||
    mime.endsWith('+xml') ||
    mime.endsWith('+json') ||
    mime === 'application/xml' ||
    mime === 'application/json' ||
    mime === 'application/javascript'
  );
}

const HTML_START =
  /^<(!doctype\s+html|html|head|body|script|iframe|h1|div|font|table|a|style|title|b|br|p|!--)[\s/>]/i;

/**
 * Guesses the type of a body that came without Content-Type: `text/html` if it starts like HTML
 * (a short form of the WHATWG MIME sniffing rules), else `application/octet-stream`.
 */
export function sniffMime(body: Buffer): string {
  const head = body
    .subarray(0, 512)
    .toString('latin1')
    .replace(/^(\xef\xbb\xbf|\xfe\xff|\xff\xfe)/, '')
    .trimStart();
  return HTML_START.test(head) ? 'text/html' : 'application/octet-stream';
}

/**
 * Canonical WHATWG encoding name of a label (lower case), or undefined for a label the Encoding
 * Standard does not know. The `replacement` encoding's labels (ISO-2022-KR, HZ-GB-2312, ...)
 * count as unknown, so a page claiming them falls back to windows-1252 as before.
 */
export function canonicalEncoding(label: string): string | undefined {
  const name = normalizeEncoding(label.trim());
  return name === null || name === 'replacement' ? undefined : name;
}

function bomEncoding(body: Buffer): string | undefined {
  if (body[0] === 0xef && body[1] === 0xbb && body[2] === 0xbf) return 'utf-8';
  if (body[0] === 0xfe && body[1] === 0xff) return 'utf-16be';
  if (body[0] === 0xff && body[1] === 0xfe) return 'utf-16le';
  return undefined;
}

/** Size of the prefix searched for `<meta charset>` (the HTML standard prescans 1024 bytes). */
export const CHARSET_SNIFF_BYTES = 4096;

const META_CHARSET = /<meta\b[^>]*?charset\s*=\s*["']?\s*([\w.:-]+)/i;
const XML_ENCODING = /^<\?xml\b[^>]*?\bencoding\s*=\s*["']([\w.:-]+)["']/;

function sniffedLabel(body: Buffer, mime: string): string | undefined {
  const head = body.subarray(0, CHARSET_SNIFF_BYTES).toString('latin1');
  const xml = XML_ENCODING.exec(head.trimStart());
  if (xml && (mime.endsWith('xml') || mime === '')) return xml[1];
  if (mime === 'text/html' || mime === 'application/xhtml+xml' || mime === '') {
    return META_CHARSET.exec(head)?.[1] ?? xml?.[1];
  }
  return undefined;
}

/** Where the charset of a body was found. */
export type CharsetSource = 'bom' | 'header' | 'meta' | 'fallback' | 'default';

/**
 * Finds the encoding of a body, in the order browsers use: a byte order mark, then the header's
 * charset, then `<meta charset>` / `<meta http-equiv=content-type>` / `<?xml encoding?>` in the
 * first {@link CHARSET_SNIFF_BYTES} bytes, else UTF-8. A label TextDecoder does not know is
 * passed over; if only unknown labels were found the result is windows-1252, the browsers'
 * legacy default. A `<meta>` claiming UTF-16 means UTF-8 (the bytes were readable as ASCII).
 * @returns a canonical encoding name TextDecoder accepts.
 */
export function detectCharset(
  body: Buffer,
  headerCharset: string | undefined,
  mime: string,
): { charset: string; source: CharsetSource } {
  const bom = bomEncoding(body);
  if (bom) return { charset: bom, source: 'bom' };
  let sawUnknown = false;
  if (headerCharset) {
    const fromHeader = canonicalEncoding(headerCharset);
    if (fromHeader) return { charset: fromHeader, source: 'header' };
    sawUnknown = true;
  }
  const label = sniffedLabel(body, mime);
  if (label) {
    const fromMeta = canonicalEncoding(label);
    if (fromMeta) return { charset: fromMeta.startsWith('utf-16') ? 'utf-8' : fromMeta, source: 'meta' };
    sawUnknown = true;
  }
  return sawUnknown
    ? { charset: 'windows-1252', source: 'fallback' }
    : { charset: 'utf-8', source: 'default' };
}

/** Decodes bytes with an encoding name from {@link detectCharset}; never throws. */
export function decodeText(body: Buffer, charset: string): string {
  const encoding = canonicalEncoding(charset) ?? 'windows-1252';
  return new WhatwgTextDecoder(encoding).decode(body);
}

/**
 * Leading bytes of formats that are never text (WHATWG MIME Sniffing, sections 6.1 to 6.4); the
 * short ASCII ones (`BM`, `RIFF`, `ID3`) are left to the binary-byte test, which their headers fail.
 */
const BINARY_SIGNATURES: readonly Buffer[] = [
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), // PNG
  Buffer.from('GIF87a', 'latin1'),
  Buffer.from('GIF89a', 'latin1'),
  Buffer.from([0xff, 0xd8, 0xff]), // JPEG
  Buffer.from([0x00, 0x00, 0x01, 0x00]), // ICO
  Buffer.from('%PDF-', 'latin1'),
  Buffer.from('%!PS-Adobe-', 'latin1'),
  Buffer.from([0x50, 0x4b, 0x03, 0x04]), // ZIP (and docx, epub, jar)
  Buffer.from([0x1f, 0x8b, 0x08]), // gzip
  Buffer.from('Rar!', 'latin1'),
  Buffer.from([0x00, 0x61, 0x73, 0x6d]), // WebAssembly
  Buffer.from('OggS', 'latin1'),
  Buffer.from('wOFF', 'latin1'),
  Buffer.from('wOF2', 'latin1'),
];

/** Bytes of the first {@link BINARY_SNIFF_BYTES} that mark binary data (MIME Sniffing, "binary data byte"). */
function isBinaryDataByte(b: number): boolean {
  return b <= 0x08 || b === 0x0b || (b >= 0x0e && b <= 0x1a) || (b >= 0x1c && b <= 0x1f);
}

/** Bytes of a body looked at by {@link looksBinary} (the sniffing algorithm's resource header). */
export const BINARY_SNIFF_BYTES = 1445;

/**
 * True when a body labelled as text is not: it starts with the signature of an image, archive,
 * PDF, font or media file, or (without a UTF-16 byte order mark) holds a binary data byte in its
 * first {@link BINARY_SNIFF_BYTES} bytes. A server that sends a PNG as `text/html` would
 * otherwise give a page of garbage text.
 */
export function looksBinary(body: Buffer): boolean {
  if (BINARY_SIGNATURES.some((signature) => body.subarray(0, signature.length).equals(signature)))
    return true;
  const bom = bomEncoding(body);
  if (bom === 'utf-16be' || bom === 'utf-16le') return false;
  const end = Math.min(body.length, BINARY_SNIFF_BYTES);
  for (let i = 0; i < end; i++) if (isBinaryDataByte(body[i] as number)) return true;
  return false;
}
