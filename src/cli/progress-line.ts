/**
 * The progress line of long commands: a bar with the page budget, rate and time left, rewritten
 * in place on a terminal and fitted to its width (the least useful parts are dropped first, never
 * cut in the middle); one plain line every `everyMs` otherwise (logs, CI), so a crawl never looks
 * stuck.
 *
 * No library: cli-progress (the well-known one) cuts a line at the terminal's width, which drops
 * whatever is at the end (the failure count), and knows nothing
 * of a resume, whose rate must count this run's pages only.
 */
import type { CrawlProgress } from '../crawl/index.js';

/** What the line knows besides the progress: the budgets of the crawl. */
export interface ProgressBudget {
  /** Page budget (attempts), or false for none. @default false */
  maxPages?: number | false;
  /** Time budget of this run in ms, or false for none. @default false */
  timeLimitMs?: number | false;
}

/** Bar width in characters, at most and at least (narrower: the bar is left out). */
const BAR_MAX = 24;
const BAR_MIN = 8;

/** `1:05:09`, `4:09` or `9 s`. */
export function formatDuration(ms: number): string {
  const total = Math.max(0, Math.round(ms / 1000));
  if (total < 60) return `${total} s`;
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = String(total % 60).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${s}` : `${m}:${s}`;
}

/**
 * Time left until a budget ends, in ms, from this run's rate; undefined when there is no budget
 * or no rate yet.
 */
export function etaMs(p: CrawlProgress, budget: ProgressBudget): number | undefined {
  const left: number[] = [];
  if (budget.maxPages !== undefined && budget.maxPages !== false && p.pagesPerSec > 0) {
    left.push((Math.max(0, budget.maxPages - p.steps) * 1000) / p.pagesPerSec);
  }
  if (budget.timeLimitMs !== undefined && budget.timeLimitMs !== false) {
    left.push(Math.max(0, budget.timeLimitMs - p.elapsedMs));
  }
  return left.length === 0 ? undefined : Math.min(...left);
}

/** No new attempt for this long: the line says what the crawl waits for instead of an ETA. */
export const STALL_MS = 5000;

const plural = (n: number, word: string, words = `${word}s`) => `${n} ${n === 1 ? word : words}`;

/**
 * What a crawl with no new attempt for `stalledMs` waits for: `waiting 0:40: 1 host in
 * backoff/retry, 1 fetch in flight`. An ETA from the rate so far would count down while
 * nothing moves.
 */
function waitingText(p: CrawlProgress, stalledMs: number): string {
  const what = [
    (p.retryHosts ?? 0) > 0 ? `${plural(p.retryHosts ?? 0, 'host')} in backoff/retry` : '',
    p.inFlight > 0 ? `${plural(p.inFlight, 'fetch', 'fetches')} in flight` : '',
  ].filter(Boolean);
  return `waiting ${formatDuration(stalledMs)}${what.length > 0 ? `: ${what.join(', ')}` : ''}`;
}

/** Fraction of the page budget spent, 0 to 1, or undefined without a page budget. */
function spent(p: CrawlProgress, budget: ProgressBudget): number | undefined {
  const max = budget.maxPages;
  return max === undefined || max === false || max <= 0 ? undefined : Math.min(1, p.steps / max);
}

function bar(fraction: number, width: number): string {
  const full = Math.round(fraction * width);
  return `[${'#'.repeat(full)}${'-'.repeat(width - full)}]`;
}

/**
 * The parts of the line, most useful first: pages against the budget, harvest rate, speed, time
 * left, failures, relevant sites, frontier.
 */
function parts(p: CrawlProgress, budget: ProgressBudget, stalledMs: number): string[] {
  const fraction = spent(p, budget);
  const pages =
    fraction === undefined
      ? `pages ${p.steps}`
      : `pages ${p.steps}/${budget.maxPages} ${(fraction * 100).toFixed(0)}%`;
  const eta = etaMs(p, budget);
  const robots = p.robotsHosts ?? 0;
  return [
    pages,
    `relevant ${p.relevant} (${(p.harvestRate * 100).toFixed(1)}%)`,
    `${p.pagesPerSec.toFixed(1)}/s`,
    stalledMs >= STALL_MS ? waitingText(p, stalledMs) : eta === undefined ? '' : `ETA ${formatDuration(eta)}`,
    robots > 0 ? `waiting for robots.txt of ${plural(robots, 'host')}` : '',
    p.failures > 0 ? `failed ${p.failures}` : '',
    `sites ${p.relevantDomains}`,
    `frontier ${p.frontierSize}`,
  ].filter(Boolean);
}

/**
 * The progress as one line of at most `width` characters: whole parts only, the least useful
 * dropped first, and on a terminal a bar in front when there is a page budget and room.
 * @param width columns available (the terminal's, less one so the cursor does not wrap)
 * @param hasBar draw the bar (terminals); plain lines for logs have none
 * @param stalledMs time since the last new attempt; from STALL_MS on, what the crawl waits for
 *   replaces the ETA
 */
export function formatProgress(
  p: CrawlProgress,
  budget: ProgressBudget = {},
  width = Number.POSITIVE_INFINITY,
  hasBar = false,
  stalledMs = 0,
): string {
  const all = parts(p, budget, stalledMs);
  let kept = all.length;
  const join = (n: number) => all.slice(0, n).join(' | ');
  while (kept > 1 && join(kept).length > width) kept--;
  let text = join(kept);
  if (text.length > width) text = text.slice(0, Math.max(0, width)); // one part wider than the screen
  const fraction = spent(p, budget);
  if (hasBar && fraction !== undefined) {
    const room = width - text.length - 1 - 2; // a space and the brackets
    const size = Math.min(BAR_MAX, room);
    if (size >= BAR_MIN) text = `${bar(fraction, size)} ${text}`;
  }
  return text;
}

/** Writes progress to a stream: in place on a terminal, a line every `everyMs` otherwise. */
export class ProgressLine {
  private lastLogMs = Number.NEGATIVE_INFINITY;
  private isDirty = false;
  /** The last text shown, and whether a log (not a terminal) has it yet. */
  private lastText = '';
  private isLogged = true;
  /** Attempts at the last show, and the elapsed time when they last changed. */
  private lastSteps = -1;
  private stepsChangedMs = 0;

  constructor(
    private readonly stream: NodeJS.WriteStream = process.stderr,
    private readonly everyMs = 10_000,
  ) {}

  /** True when the line is redrawn in place (a terminal). */
  get isTerminal(): boolean {
    return this.stream.isTTY === true;
  }

  /** Columns of the terminal less one (a line that fills the last column wraps on some terminals). */
  get width(): number {
    // A terminal that reports no width (0 columns: some pseudo-terminals, serial consoles) gets 80.
    return this.isTerminal ? (this.stream.columns || 80) - 1 : Number.POSITIVE_INFINITY;
  }

  /** Shows a crawl's progress with its budget: a fitted bar on a terminal, plain lines otherwise. */
  show(p: CrawlProgress, budget: ProgressBudget = {}, prefix = ''): void {
    if (p.steps !== this.lastSteps) {
      this.lastSteps = p.steps;
      this.stepsChangedMs = p.elapsedMs;
    }
    const width = this.width - prefix.length;
    const stalledMs = p.elapsedMs - this.stepsChangedMs;
    this.update(`${prefix}${formatProgress(p, budget, width, this.isTerminal, stalledMs)}`, p.elapsedMs);
  }

  update(text: string, nowMs: number): void {
    this.lastText = text;
    if (this.isTerminal) {
      this.stream.write(`\r\x1b[2K${text.slice(0, this.width)}`);
      this.isDirty = true;
    } else if (nowMs - this.lastLogMs >= this.everyMs) {
      this.lastLogMs = nowMs;
      this.stream.write(`${text}\n`);
      this.isLogged = true;
    } else this.isLogged = false;
  }

  /**
   * Writes `text` as a line of its own (a message such as the dashboard's address): on a terminal
   * the progress line is cleared first and drawn again by the next update.
   */
  note(text: string): void {
    if (this.isDirty) this.stream.write('\r\x1b[2K');
    this.isDirty = false;
    this.stream.write(`${text}\n`);
  }

  /**
   * Ends the line so that what follows starts on a new one; in a log, the last figures are
   * written if the last line written was older, so a log ends with the crawl's final figures.
   */
  done(): void {
    if (this.isDirty) this.stream.write('\n');
    else if (!this.isTerminal && !this.isLogged) this.stream.write(`${this.lastText}\n`);
    this.isDirty = false;
    this.isLogged = true;
  }
}
