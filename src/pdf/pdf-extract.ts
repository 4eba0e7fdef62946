/**
 * Text, title and links of a PDF with Mozilla's pdf.js (`pdfjs-dist`, legacy build for Node).
 * Runs in whatever thread calls it; the crawler calls it inside a worker thread with time and
 * memory limits (pdf-pool.ts). Nothing is fetched: the CMaps and standard fonts pdf.js may need
 * are read from the installed package, and links in the PDF are only returned, never opened.
 */
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { ParsedLink } from '../html/index.js';

/** Limits of one extraction. */
export interface PdfExtractLimits {
  /** Pages read; later pages are left out (`isCut`). */
  maxPages: number;
  /** Characters of text kept; the rest is left out (`isCut`). */
  maxTextChars: number;
}

/** What one PDF yields: the `ParsedPage` fields the crawler uses. */
export interface ExtractedPdf {
  /** The document's Info /Title, else its first line of text (at most 200 characters). */
  title: string;
  /** Text of the pages read, whitespace collapsed within lines, one line per text line. */
  text: string;
  /** URI link annotations, resolved against the PDF's URL, in page order. */
  links: ParsedLink[];
  /** Pages in the document. */
  pageCount: number;
  /** Pages read (at most `maxPages`). */
  pagesRead: number;
  /** True when a limit left pages or text out. */
  isCut: boolean;
}

/** Name of the error a worker answers with when the PDF asked for a buffer over `maxBufferMb` (pdf-worker.ts). */
export const BUFFER_CAP_ERROR = 'PdfBufferCapError';

let assets: { cMapUrl: string; standardFontDataUrl: string } | undefined;

/** Folders of the CMaps and standard fonts shipped in the pdfjs-dist package (file paths). */
function localAssets(): { cMapUrl: string; standardFontDataUrl: string } {
  if (!assets) {
    const root = dirname(createRequire(import.meta.url).resolve('pdfjs-dist/package.json'));
    assets = { cMapUrl: `${join(root, 'cmaps')}/`, standardFontDataUrl: `${join(root, 'standard_fonts')}/` };
  }
  return assets;
}

function resolveLink(raw: string | undefined, base: string): string | undefined {
  if (!raw) return undefined;
  try {
    const url = new URL(raw, base);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Extracts the text, title and links of a PDF.
 * @param url the PDF's URL, to resolve relative links.
 * @throws whatever pdf.js throws for a file it cannot read (InvalidPDFException, PasswordException).
 */
export async function extractPdf(
  bytes: Uint8Array,
  url: string,
  limits: PdfExtractLimits,
): Promise<ExtractedPdf> {
  const pdfjs = await import('pdfjs-dist/legacy/build/pdf.mjs');
  const task = pdfjs.getDocument({
    // pdf.js refuses a Buffer and may take over the array it is given: a copy of its own.
    data: new Uint8Array(bytes),
    ...localAssets(),
    isEvalSupported: false, // no code generated from the file's contents
    disableFontFace: true,
    useSystemFonts: false,
    enableXfa: false,
    verbosity: 0,
  });
  const doc = await task.promise;
  try {
    const lines: string[] = [];
    const links: ParsedLink[] = [];
    let chars = 0;
    let isCut = false;
    const pagesToRead = Math.min(doc.numPages, limits.maxPages);
    if (pagesToRead < doc.numPages) isCut = true;
    let pagesRead = 0;
    for (let n = 1; n <= pagesToRead && chars < limits.maxTextChars; n++) {
      const page = await doc.getPage(n);
      const content = await page.getTextContent();
      let line = '';
      for (const item of content.items) {
        if (!('str' in item)) continue;
        line += item.str;
        if (item.hasEOL) {
          const clean = line.replace(/\s+/g, ' ').trim();
          if (clean !== '') lines.push(clean);
          chars += clean.length + 1;
          line = '';
        } else if (item.str !== '' && !item.str.endsWith(' ')) line += ' ';
      }
      const clean = line.replace(/\s+/g, ' ').trim();
      if (clean !== '') lines.push(clean);
      chars += clean.length + 1;
      for (const annotation of await page.getAnnotations({ intent: 'display' })) {
        if (annotation.subtype !== 'Link') continue;
        const target = resolveLink(annotation.url ?? annotation.unsafeUrl, url);
        if (target) links.push({ url: target, anchorText: '', isNofollow: false });
      }
      page.cleanup();
      pagesRead = n;
    }
    let text = lines.join('\n');
    if (text.length > limits.maxTextChars || pagesRead < pagesToRead) {
      isCut = true;
      text = text.slice(0, limits.maxTextChars);
    }
    const info = (await doc.getMetadata().catch(() => undefined))?.info as { Title?: unknown } | undefined;
    const infoTitle = typeof info?.Title === 'string' ? info.Title.replace(/\s+/g, ' ').trim() : '';
    const title = (infoTitle || lines[0] || '').slice(0, 200);
    return { title, text, links, pageCount: doc.numPages, pagesRead, isCut };
  } finally {
    await doc.destroy();
  }
}
