import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { runPdfBench } from './pdf-bench.js';

it('runs the PDF benchmark harness on a tiny budget and writes its report', async () => {
  const outDir = mkdtempSync(join(tmpdir(), 'tres-pdf-bench-'));
  try {
    const [made] = await runPdfBench({ outDir, madePdfs: 2, madePages: 2 });
    expect(made?.pdfPages).toBe(4);
    expect(made?.failed).toBe(0);
    expect(readFileSync(join(outDir, 'pdf-bench.md'), 'utf8')).toContain('| made');
  } finally {
    rmSync(outDir, { recursive: true, force: true });
  }
}, 60_000);
