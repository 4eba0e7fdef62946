/**
 * Writes small, valid PDF files with known text and links, for tests, benchmarks and sandbox
 * webs: one Helvetica text block per page and a URI link annotation per link. The cross-reference
 * table is computed from the real byte offsets, so strict readers (pdf.js, poppler) accept it.
 * Also writes small PDFs that take a reader far more memory than their size (to show the PDF
 * worker's memory caps), made here rather than downloaded.
 */
import { constants, deflateRawSync } from 'node:zlib';

/** One page of a made PDF. */
export interface MadePdfPage {
  /** Lines of text drawn top to bottom (ASCII; parentheses and backslashes are escaped). */
  lines: readonly string[];
  /** Absolute or relative URLs, each a link annotation on the page. @default [] */
  links?: readonly string[];
}

/** What {@link makePdf} writes. */
export interface MadePdf {
  /** Document title (the Info dictionary's /Title). @default undefined (none) */
  title?: string;
  pages: readonly MadePdfPage[];
}

function pdfString(text: string): string {
  return `(${text.replace(/[\\()]/g, (c) => `\\${c}`).replace(/[^\x20-\x7e]/g, '?')})`;
}

/** The bytes of a PDF 1.4 file holding `doc`. */
export function makePdf(doc: MadePdf): Buffer {
  const objects: string[] = []; // objects[i] is object number i + 1
  const add = (body: string): number => {
    objects.push(body);
    return objects.length;
  };
  const catalog = add(''); // filled in below, once the page tree's number is known
  const pagesId = add('');
  const font = add('<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>');
  const pageIds: number[] = [];
  for (const page of doc.pages) {
    const ops = ['BT', '/F1 12 Tf', '14 TL', '72 720 Td'];
    for (const line of page.lines) ops.push(`${pdfString(line)} Tj`, 'T*');
    ops.push('ET');
    const stream = ops.join('\n');
    const content = add(`<< /Length ${Buffer.byteLength(stream, 'latin1')} >>\nstream\n${stream}\nendstream`);
    const annots = (page.links ?? []).map((url, i) =>
      add(
        `<< /Type /Annot /Subtype /Link /Rect [72 ${100 + i * 20} 300 ${115 + i * 20}] /Border [0 0 0] ` +
          `/A << /S /URI /URI ${pdfString(url)} >> >>`,
      ),
    );
    const annotText = annots.length > 0 ? ` /Annots [${annots.map((a) => `${a} 0 R`).join(' ')}]` : '';
    pageIds.push(
      add(
        `<< /Type /Page /Parent ${pagesId} 0 R /MediaBox [0 0 612 792] ` +
          `/Resources << /Font << /F1 ${font} 0 R >> >> /Contents ${content} 0 R${annotText} >>`,
      ),
    );
  }
  objects[catalog - 1] = `<< /Type /Catalog /Pages ${pagesId} 0 R >>`;
  objects[pagesId - 1] =
    `<< /Type /Pages /Kids [${pageIds.map((p) => `${p} 0 R`).join(' ')}] /Count ${pageIds.length} >>`;
  const info = doc.title === undefined ? undefined : add(`<< /Title ${pdfString(doc.title)} >>`);
  return writePdf(objects, catalog, info);
}

/** The file of `objects` (bodies in latin1, object number i + 1 at index i) with its xref table. */
function writePdf(objects: readonly string[], catalog: number, info?: number): Buffer {
  let out = '%PDF-1.4\n%\xe2\xe3\xcf\xd3\n';
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    offsets.push(Buffer.byteLength(out, 'latin1'));
    out += `${i + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xrefAt = Buffer.byteLength(out, 'latin1');
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const offset of offsets) out += `${String(offset).padStart(10, '0')} 00000 n \n`;
  out += `trailer\n<< /Size ${objects.length + 1} /Root ${catalog} 0 R${info ? ` /Info ${info} 0 R` : ''} >>\n`;
  out += `startxref\n${xrefAt}\n%%EOF\n`;
  return Buffer.from(out, 'latin1');
}

/**
 * How a {@link makeHungryPdf} file takes memory: `'long-string'` draws one string of `size`
 * characters, which pdf.js's lexer collects one array slot per character on the JS heap (8 bytes
 * each: 24 million characters pass a 256 MiB heap as the array grows); `'inflating'` is a
 * content stream of `size` spaces, which pdf.js decodes into one buffer outside the JS heap (a
 * zip bomb: 1 GiB of spaces compresses to about 1 MiB).
 */
export type HungryPdfKind = 'long-string' | 'inflating';

/**
 * A one-page PDF whose Flate-compressed content stream costs a reader `size` characters (bytes)
 * of memory or more; see {@link HungryPdfKind}. Compressed in 1 MiB pieces, so making it never
 * holds the decoded stream.
 */
export function makeHungryPdf(kind: HungryPdfKind, size: number): Buffer {
  const fill = kind === 'long-string' ? 'a' : ' ';
  const head = Buffer.from(kind === 'long-string' ? 'BT /F1 12 Tf 72 720 Td (' : 'BT ', 'latin1');
  const tail = Buffer.from(kind === 'long-string' ? ') Tj ET' : 'ET', 'latin1');
  const pieceBytes = Math.min(size, 2 ** 20);
  // A zlib stream by hand (RFC 1950): header, raw deflate blocks, Adler-32 of the decoded data.
  // Each piece is compressed alone and ends on a byte boundary (Z_SYNC_FLUSH, no final block),
  // so the same compressed piece repeats; an empty final block closes the stream.
  const flush = { finishFlush: constants.Z_SYNC_FLUSH };
  const parts: Buffer[] = [Buffer.from([0x78, 0x9c]), deflateRawSync(head, flush)];
  const piece = deflateRawSync(Buffer.alloc(pieceBytes, fill), flush);
  const wholePieces = Math.floor(size / pieceBytes);
  for (let i = 0; i < wholePieces; i++) parts.push(piece);
  const rest = size - wholePieces * pieceBytes;
  if (rest > 0) parts.push(deflateRawSync(Buffer.alloc(rest, fill), flush));
  parts.push(deflateRawSync(tail), adler32([head, { byte: fill.charCodeAt(0), count: size }, tail]));
  const stream = Buffer.concat(parts).toString('latin1');
  return writePdf(
    [
      '<< /Type /Catalog /Pages 2 0 R >>',
      '<< /Type /Pages /Kids [4 0 R] /Count 1 >>',
      '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>',
      '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> >> /Contents 5 0 R >>',
      `<< /Length ${stream.length} /Filter /FlateDecode >>\nstream\n${stream}\nendstream`,
    ],
    1,
  );
}

/** Adler-32 (RFC 1950 section 8) of bytes and runs of one byte, big-endian, without expanding the runs. */
function adler32(parts: readonly (Buffer | { byte: number; count: number })[]): Buffer {
  const MOD = 65521n;
  let a = 1n;
  let b = 0n;
  for (const part of parts) {
    if (Buffer.isBuffer(part)) {
      for (const byte of part) {
        a = (a + BigInt(byte)) % MOD;
        b = (b + a) % MOD;
      }
    } else {
      // n equal bytes c: a grows by n*c; b by n*a + c*n(n+1)/2.
      const n = BigInt(part.count);
      const c = BigInt(part.byte);
      b = (b + n * a + (c * n * (n + 1n)) / 2n) % MOD;
      a = (a + n * c) % MOD;
    }
  }
  const out = Buffer.alloc(4);
  out.writeUInt32BE(Number((b << 16n) | a));
  return out;
}
