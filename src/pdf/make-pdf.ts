/**
 * Writes small, valid PDF files with known text and links, for tests, benchmarks and sandbox
 * webs: one Helvetica text block per page and a URI link annotation per link. The cross-reference
 * table is computed from the real byte offsets, so strict readers (pdf.js, poppler) accept it.
 */

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
