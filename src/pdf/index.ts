/**
 * PDF: text, title and links of PDF responses (pdf.js), extracted in worker threads with time
 * and memory limits, so the crawler can judge, store and follow PDFs like HTML pages.
 */

export { type ExtractedPdf, extractPdf, type PdfExtractLimits } from './pdf-extract.js';
export { DEFAULT_PDF_OPTIONS, PdfExtractor, type PdfOptions, resolvePdfOptions } from './pdf-pool.js';
