/**
 * What `tres crawl` prints at the end, and its exit code: the summary, failures grouped by reason
 * with a hint for the ones a user can fix, 1 when no page could be fetched, 130 when interrupted
 * (the shell's code for Ctrl-C).
 */
import type { CrawlSummary } from '../crawl/index.js';
import type { FailureReason } from '../store/index.js';
import { tresCommand } from './tres-command.js';

/** Exit codes of `tres crawl` besides 0 (done) and 2 (refused: bad options). */
export const CRAWL_EXIT = { nothingFetched: 1, interrupted: 130 } as const;

/** Hints for failure codes a user can do something about. */
export const FAILURE_HINTS: Readonly<Record<string, string>> = {
  TRES_ADDRESS_BLOCKED:
    'the address is loopback or private, refused by default: add --allow-loopback to crawl a server on this machine',
  TRES_DNS:
    'the host name does not resolve: check the URL, or send the host to a server with --resolve HOST=ADDR:PORT',
  TRES_DNS_TEMPORARY: 'DNS did not answer: check the network connection, or use --resolve HOST=ADDR:PORT',
  TRES_CONNECTION_REFUSED:
    'nothing listens at that address: is the server running, and is the --resolve port right?',
  TRES_HOST_UNREACHABLE: 'no route to the host: check the network connection',
  TRES_CONNECT_TIMEOUT: 'the server did not accept a connection in time: is it up, and reachable from here?',
  TRES_ROBOTS_DISALLOWED:
    "the site's robots.txt forbids these URLs and tres obeys it (--no-robots only for your own sites)",
  TRES_ROBOTS_UNAVAILABLE:
    "the site's robots.txt could not be fetched (5xx, timeout, reset), so its pages were not fetched; try again later",
  TRES_URL_FILTERED:
    'outside the crawl scope: a file type tres does not read (images, archives, media, office files), or --include, --exclude, --allowed-domains',
  TRES_TLS: 'the TLS handshake failed: the certificate is invalid or the server does not speak https',
  TRES_CONTENT_TYPE: 'neither an HTML page nor a PDF (only these are fetched and read)',
  TRES_PDF_TIMEOUT: 'the PDF took too long to read (CrawlerOptions pdf.timeoutMs)',
  TRES_PDF_TOO_BIG: 'the PDF needed more memory to read than allowed (pdf.maxHeapMb, pdf.maxBufferMb)',
  TRES_PDF_INVALID: 'the PDF is damaged or encrypted; it is kept in the WARC file unread',
  TRES_HTTP_429: 'the server asked to slow down: raise --min-delay-ms',
};

/** `1 attempt`, `2 attempts`. */
export function countOf(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

/**
 * Failure codes that say a host could not be reached at all: no network here, or no server
 * there. When every seed failed so, the way forward without a network is the sandbox web.
 */
const UNREACHABLE: ReadonlySet<string> = new Set([
  'TRES_DNS',
  'TRES_DNS_TEMPORARY',
  'TRES_CONNECTION_REFUSED',
  'TRES_HOST_UNREACHABLE',
  'TRES_CONNECT_TIMEOUT',
  'TRES_NETWORK',
]);

/** A run shorter than this prints no speed: a rate over a tenth of a second says nothing. */
const MIN_SPEED_MS = 1000;

/**
 * The closing line of a crawl that fetched no page: what happened and the way on. When every
 * failure says the hosts could not be reached (no network, as on a machine offline), it leads to
 * the sandbox web, which needs none; otherwise to a resume with the options that fix the reasons.
 * @param isRestart this run was a resume that started a crawl which fetched nothing before again
 */
export function nothingFetchedMessage(
  s: CrawlSummary,
  reasons: readonly FailureReason[],
  isRestart = false,
): string {
  const again = isRestart ? ' again' : '';
  const codes = reasons.map((r) => `${r.code} ${r.count}`).join(', ');
  const resume = tresCommand(`crawl --resume ${s.outDir}`);
  if (reasons.length > 0 && reasons.every((r) => UNREACHABLE.has(r.code))) {
    return [
      `tres: no page could be fetched${again}: no host could be reached (${codes}).`,
      `  No network here? Try tres on the sandbox web on this machine: run ${tresCommand('sandbox serve')} in another`,
      '  terminal and paste the crawl command it prints, or run ' +
        `${tresCommand('demo')} (nothing to set up).`,
      `  With a network, or with --resolve to a server you run, continue with ${resume}`,
      '  (a crawl that fetched no page starts again from its seeds).',
    ].join('\n');
  }
  return `tres: no page could be fetched${again} (${countOf(s.failures, 'attempt')} failed); see the reasons above, then run ${resume} with the options that fix them (a crawl that fetched no page starts again from its seeds)`;
}

/** Failures listed before "... and N more reasons". */
const MAX_REASONS = 8;

/** The exit code for a crawl that ended with `summary`. */
export function crawlExitCode(summary: CrawlSummary): number {
  if (summary.stopReason === 'interrupted') return CRAWL_EXIT.interrupted;
  return summary.pages === 0 ? CRAWL_EXIT.nothingFetched : 0;
}

/**
 * The speed line: this run's attempts over this run's time (a resume does not count the pages of
 * the runs before it), or why this run fetched nothing.
 */
function speedText(s: CrawlSummary, maxPages?: number | false): string {
  const seconds = (s.elapsedMs / 1000).toFixed(1);
  if (s.stepsThisRun === 0) {
    if (s.stopReason === 'max-pages') {
      const budget = maxPages === undefined || maxPages === false ? '--max-pages' : `--max-pages ${maxPages}`;
      return `nothing fetched in this run: the budget (${budget}) was already spent; resume with a larger --max-pages to crawl on`;
    }
    if (s.stopReason === 'frontier-empty') return 'nothing fetched in this run: no URL was left to crawl';
    return `nothing fetched in this run (${seconds} s)`;
  }
  const rate =
    s.elapsedMs < MIN_SPEED_MS
      ? `${countOf(s.stepsThisRun, 'attempt')} in ${seconds} s, too short to measure a speed`
      : `${s.pagesPerSec.toFixed(1)} pages/s over ${seconds} s`;
  return s.stepsThisRun === s.steps
    ? rate
    : `${rate} (this run: ${s.stepsThisRun} of the ${s.steps} attempts)`;
}

/**
 * The end-of-crawl report: numbers, then failures by reason (whole crawl, earlier runs included).
 * @param maxPages the crawl's page budget, named when a resume found it spent
 */
export function formatCrawlReport(
  s: CrawlSummary,
  reasons: readonly FailureReason[],
  maxPages?: number | false,
): string {
  const interrupted = s.stopReason === 'interrupted';
  const lines = [
    `crawl ${interrupted ? 'interrupted' : 'finished'} (${s.stopReason}) with strategy ${s.strategy}`,
    `  pages fetched   ${s.steps} (${s.failures} failed)`,
    `  relevant        ${s.relevant}  harvest rate ${(s.harvestRate * 100).toFixed(1)}%`,
    `  relevant sites  ${s.relevantDomains}`,
    `  frontier left   ${s.frontierSize}`,
    `  speed           ${speedText(s, maxPages)}`,
    `  stored in       ${s.outDir}${interrupted ? `  (continue with: ${tresCommand(`crawl --resume ${s.outDir}`)})` : ''}`,
  ];
  if (reasons.length > 0) {
    lines.push('  failures by reason');
    const width = Math.max(...reasons.slice(0, MAX_REASONS).map((r) => r.code.length));
    for (const r of reasons.slice(0, MAX_REASONS)) {
      lines.push(`    ${r.code.padEnd(width)} ${String(r.count).padStart(6)}  e.g. ${r.exampleUrl}`);
      const hint = FAILURE_HINTS[r.code];
      if (hint) lines.push(`    ${' '.repeat(width)}         ${hint}`);
    }
    if (reasons.length > MAX_REASONS) lines.push(`    ... and ${reasons.length - MAX_REASONS} more reasons`);
  }
  return lines.join('\n');
}
