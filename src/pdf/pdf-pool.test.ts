import { makeHungryPdf, makePdf } from 'tres-testing';
import { afterAll, describe, expect, it } from 'vitest';
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

  it('extracts the text, Info title and http(s) links (resolved against the URL) of a real PDF in a child process', async () => {
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

  it('ends a child past timeoutMs with TRES_PDF_TIMEOUT, and a fresh child serves the next PDF', async () => {
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

  it('fails a PDF past the heap cap with TRES_PDF_TOO_BIG before the time limit, and a fresh child reads the next PDF', async () => {
    // 2 million characters in one string: pdf.js's lexer holds 16 MB of array slots for it, and
    // the array grows by copying; the PDF itself is 3 kB.
    const capped = new PdfExtractor({ maxHeapMb: 32 });
    try {
      await expect(
        capped.extract(makeHungryPdf('long-string', 2_000_000), 'https://a.test/heavy.pdf'),
      ).rejects.toMatchObject({
        code: 'TRES_PDF_TOO_BIG',
        message: expect.stringContaining('pdf.maxHeapMb'),
      });
      expect((await capped.extract(PDF, 'https://a.test/r.pdf')).pagesRead).toBe(2);
    } finally {
      await capped.close();
    }
  });

  it('fails a PDF whose stream inflates past maxBufferMb with TRES_PDF_TOO_BIG (buffers are outside the heap cap), and reads the next PDF', async () => {
    // 32 MiB of spaces in a 30 kB PDF: no JS heap to speak of, one 32 MiB decoded buffer.
    const capped = new PdfExtractor({ maxBufferMb: 4 });
    try {
      await expect(
        capped.extract(makeHungryPdf('inflating', 32 * 2 ** 20), 'https://a.test/bomb.pdf'),
      ).rejects.toMatchObject({
        code: 'TRES_PDF_TOO_BIG',
        message: expect.stringContaining('more than 4 MiB in one buffer'),
      });
      expect((await capped.extract(PDF, 'https://a.test/r.pdf')).pagesRead).toBe(2);
      // Under the cap the same kind of file reads (its page holds no text).
      const small = await capped.extract(makeHungryPdf('inflating', 2 ** 20), 'https://a.test/ok.pdf');
      expect([small.pagesRead, small.text]).toEqual([1, '']);
    } finally {
      await capped.close();
    }
  });

  it('refuses a bad option, naming it', () => {
    expect(() => new PdfExtractor({ timeoutMs: 0 })).toThrow(/pdf\.timeoutMs must be an integer >= 1/);
  });
});
