/**
 * The progress line of long commands: rewritten in place on a terminal, one line every
 * `everyMs` otherwise (logs, CI), so a crawl never looks stuck.
 */
import type { CrawlProgress } from '../crawl/events.js';

export function formatProgress(p: CrawlProgress): string {
  return [
    `pages ${p.steps}`,
    `relevant ${p.relevant} (${(p.harvestRate * 100).toFixed(1)}%)`,
    `domains ${p.relevantDomains}`,
    `frontier ${p.frontierSize}`,
    `${p.pagesPerSec.toFixed(1)} pages/s`,
    p.failures > 0 ? `failed ${p.failures}` : '',
  ]
    .filter(Boolean)
    .join(' | ');
}

export class ProgressLine {
  private lastLogMs = Number.NEGATIVE_INFINITY;
  private isDirty = false;

  constructor(
    private readonly stream: NodeJS.WriteStream = process.stderr,
    private readonly everyMs = 10_000,
  ) {}

  update(text: string, nowMs: number): void {
    if (this.stream.isTTY) {
      const width = this.stream.columns ?? 120;
      this.stream.write(`\r\x1b[2K${text.slice(0, width - 1)}`);
      this.isDirty = true;
    } else if (nowMs - this.lastLogMs >= this.everyMs) {
      this.lastLogMs = nowMs;
      this.stream.write(`${text}\n`);
    }
  }

  /** Ends the line so that what follows starts on a new one. */
  done(): void {
    if (this.isDirty) this.stream.write('\n');
    this.isDirty = false;
  }
}
