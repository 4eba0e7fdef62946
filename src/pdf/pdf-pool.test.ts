import { afterAll, describe, expect, it } from 'vitest';
import { makePdf } from './make-pdf.js';
import { PdfExtractor } from './pdf-pool.js';

const PDF = makePdf({
  title: 'Focused crawling report',
  pages: [
    {
      lines: ['Reinforcement learning for focused crawlers', 'keeps (parentheses) and back\\slashes'],
      links: ['https://a.test/next.html', '/data/table.pdf', 'mailto:x@a.test'],
    },
    { lines: ['Second page text'] },
  ],
});

describe('PdfExtractor', () => {
  const extractor = new PdfExtractor();
  afterAll(() => extractor.close());

  it('extracts the text, Info title and http(s) links (resolved against the URL) of a real PDF in a worker', async () => {
    const pdf = await extractor.extract(PDF, 'https://a.test/papers/r.pdf');
    expect(pdf.title).toBe('Focused crawling report');
    expect(pdf.text).toBe(
      'Reinforcement learning for focused crawlers\nkeeps (parentheses) and back\\slashes\nSecond page text',
    );
    expect(pdf.links.map((l) => l.url)).toEqual([
      'https://a.test/next.html',
      'https://a.test/data/table.pdf',
    ]);
    expect([pdf.pageCount, pdf.pagesRead, pdf.isCut]).toEqual([2, 2, false]);
  });

  it('fails a file that is not a PDF with TRES_PDF_INVALID, and keeps working after it', async () => {
    await expect(
      extractor.extract(Buffer.from('<html>not a pdf</html>'), 'https://a.test/x.pdf'),
    ).rejects.toMatchObject({
      code: 'TRES_PDF_INVALID',
    });
    expect((await extractor.extract(PDF, 'https://a.test/r.pdf')).pagesRead).toBe(2);
  });

  it('reads at most maxPages pages and says the text was cut', async () => {
    const small = new PdfExtractor({ maxPages: 1 });
    try {
      const pdf = await small.extract(PDF, 'https://a.test/r.pdf');
      expect([pdf.pagesRead, pdf.isCut, pdf.text.includes('Second')]).toEqual([1, true, false]);
    } finally {
      await small.close();
    }
  });

  it('ends a worker past timeoutMs with TRES_PDF_TIMEOUT, and a fresh worker serves the next PDF', async () => {
    const hurried = new PdfExtractor({ timeoutMs: 1 });
    try {
      await expect(hurried.extract(PDF, 'https://a.test/r.pdf')).rejects.toMatchObject({
        code: 'TRES_PDF_TIMEOUT',
      });
      await expect(hurried.extract(PDF, 'https://a.test/r.pdf')).rejects.toMatchObject({
        code: 'TRES_PDF_TIMEOUT',
      });
    } finally {
      await hurried.close();
    }
  });

  it('refuses a bad option, naming it', () => {
    expect(() => new PdfExtractor({ timeoutMs: 0 })).toThrow(/pdf\.timeoutMs must be an integer >= 1/);
  });
});
