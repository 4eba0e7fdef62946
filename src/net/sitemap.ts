/**
 * Sitemaps (sitemaps.org protocol 0.9): a `<urlset>` lists page URLs, a `<sitemapindex>` lists
 * more sitemaps; either may be gzip'd; a plain-text sitemap lists one URL per line. Parsed with
 * htmlparser2 in XML mode (already the HTML parser's engine), which never fetches external
 * entities, so an XML bomb or an XXE reference is just text here.
 */
import { gunzipSync } from 'node:zlib';
import { Parser } from 'htmlparser2';
import { SkipUrlError } from '../common/index.js';

/** What one sitemap document lists. */
export interface ParsedSitemap {
  /** `urlset` (pages), `index` (more sitemaps) or `text` (one page URL per line). */
  kind: 'urlset' | 'index' | 'text';
  /** The `<loc>` values (or lines), trimmed, in document order, at most `maxUrls`. */
  urls: string[];
  /** True when the document listed more than `maxUrls` entries (the rest were dropped). */
  isCut: boolean;
}

/** The gzip magic number: a `.xml.gz` sitemap is gzip'd as a file, not as a Content-Encoding. */
function isGzip(bytes: Uint8Array): boolean {
  return bytes.length >= 2 && bytes[0] === 0x1f && bytes[1] === 0x8b;
}

/**
 * Parses a sitemap's bytes (gunzipped first when they are gzip'd).
 * @param maxDecompressedBytes cap on the gunzipped size (the protocol allows 50 MB).
 * @param maxUrls entries kept; the rest are dropped and `isCut` is set.
 * @throws SkipUrlError `TRES_DECOMPRESSION_BOMB` when gunzipping passes the cap,
 *   `TRES_CONTENT_DECODING` for corrupt gzip data.
 */
export function parseSitemap(
  bytes: Uint8Array,
  url: string,
  limits: { maxDecompressedBytes: number; maxUrls: number },
): ParsedSitemap {
  let data = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (isGzip(data)) {
    try {
      data = gunzipSync(data, { maxOutputLength: limits.maxDecompressedBytes });
    } catch (cause) {
      const isTooBig = (cause as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE';
      throw new SkipUrlError(
        isTooBig ? 'TRES_DECOMPRESSION_BOMB' : 'TRES_CONTENT_DECODING',
        isTooBig
          ? `sitemap ${url} gunzips to more than ${limits.maxDecompressedBytes} bytes`
          : `sitemap ${url} is not valid gzip data`,
        { cause, context: { url } },
      );
    }
  }
  const text = data.toString('utf8');
  return /^\s*(<\?xml|<)/.test(text) ? parseXml(text, limits.maxUrls) : parseText(text, limits.maxUrls);
}

function parseXml(xml: string, maxUrls: number): ParsedSitemap {
  let kind: ParsedSitemap['kind'] = 'urlset';
  const urls: string[] = [];
  let isCut = false;
  let inLoc = false;
  let loc = '';
  // Local names only: sitemaps use a default namespace, some a prefix (`<sm:loc>`).
  const local = (name: string) => name.slice(name.indexOf(':') + 1).toLowerCase();
  const parser = new Parser(
    {
      onopentagname(name) {
        const n = local(name);
        if (n === 'sitemapindex') kind = 'index';
        if (n === 'loc') {
          inLoc = true;
          loc = '';
        }
      },
      ontext(data) {
        if (inLoc && loc.length < 4096) loc += data;
      },
      onclosetag(name) {
        if (local(name) !== 'loc' || !inLoc) return;
        inLoc = false;
        const value = decodeEntities(loc.trim());
        if (value === '') return;
        if (urls.length < maxUrls) urls.push(value);
        else isCut = true;
      },
    },
    { xmlMode: true, decodeEntities: false },
  );
  parser.end(xml);
  return { kind, urls, isCut };
}

/** The five predefined XML entities and numeric references; nothing else is expanded. */
function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|amp|lt|gt|quot|apos);/gi, (_, e: string) => {
    const lower = e.toLowerCase();
    if (lower.startsWith('#x')) return String.fromCodePoint(Number.parseInt(lower.slice(2), 16) || 0xfffd);
    if (lower.startsWith('#')) return String.fromCodePoint(Number(lower.slice(1)) || 0xfffd);
    return { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" }[lower] ?? '';
  });
}

function parseText(text: string, maxUrls: number): ParsedSitemap {
  const urls: string[] = [];
  let isCut = false;
  for (const line of text.split(/\r?\n/)) {
    const value = line.trim();
    if (!/^https?:\/\//i.test(value)) continue;
    if (urls.length < maxUrls) urls.push(value);
    else {
      isCut = true;
      break;
    }
  }
  return { kind: 'text', urls, isCut };
}
