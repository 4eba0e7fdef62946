import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from 'tres-testing/temp-dir';
import { expect, it } from 'vitest';
import { runPdfBench } from './pdf-bench.js';

it('runs the PDF benchmark harness on a tiny budget and writes its report', async () => {
  const outDir = tempDir('tres-pdf-bench-');
  const [made, heavy, inflating] = await runPdfBench({
    outDir,
    madePdfs: 2,
    madePages: 2,
    hungryChars: 2_000_000,
    inflatedBytes: 32 * 2 ** 20,
    boundOptions: { maxHeapMb: 32, maxBufferMb: 4 },
  });
  expect(made?.pdfPages).toBe(4);
  expect(made?.failed).toBe(0);
  expect(heavy?.outcomes).toEqual(['TRES_PDF_TOO_BIG', 'read']);
  expect(inflating?.outcomes).toEqual(['TRES_PDF_TOO_BIG', 'read']);
  const md = readFileSync(join(outDir, 'pdf-bench.md'), 'utf8');
  expect(md).toContain('| made');
  expect(md).toMatch(/32 MiB of compressed spaces \(a \d+ kB PDF\): TRES_PDF_TOO_BIG after/);
}, 60_000);
