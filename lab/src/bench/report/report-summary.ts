/**
 * One report over several crawl benchmarks, one per topic (`npm run lab -- bench summary DIR...`): whether
 * a strategy (tres unless told otherwise) earns the TRES paper's claim on each topic, and the
 * harvest rate and relevant domains of every strategy at every domain limit side by side.
 *
 * The claim, per topic (the journal's Table 3 and Figure 3):
 * - some row of the strategy (`tres`, `tres_100`, ...) is on the Pareto front of harvest rate
 *   against relevant domains;
 * - every row of every rival is dominated by some row of the strategy, where a difference within
 *   the spread over seeds is a tie and dominates nothing ({@link rowDominates});
 * - its harvest rate at no domain limit is at least 85% of the oracle's from the same seeds.
 * Rows whose runs ran dry before a third of the budget are left out, as in each topic's report.
 *
 * Rivals are the other crawlers: the rows of the journal's Table 3 (Random, Tree-Random, ACHE,
 * Async) and the other papers' crawlers and baselines. TRES with a part removed or changed
 * (TRES_NH, TRES_Async, the synchronous method, `tres:key=value` specs) is the paper's ablation
 * study, Table 4, which it reports apart from the claim (section 3.6: it expects the synchronous
 * method to tie the Tree-Frontier, not to lose to it). The summary lists the ablation rows that no
 * row of the strategy dominates beside the claim, and shows them in a Table 4 layout.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ConfigError } from 'tres-crawler';
import {
  bestRowsWithTies,
  type ConfigRow,
  rowDominates,
  rowParetoFront,
  type Spread,
} from '../crawl/index.js';
import { num, pct } from './report-crawl.js';
import { fillTemplate } from './template.js';

/** Harvest rate at no limit, as a share of the oracle's, that the claim asks for. */
export const ORACLE_SHARE_GOAL = 0.85;

/** TRES and its ablations (journal Table 4): `tres`, TRES_NH, TRES_Async, the synchronous method. */
const TRES_FAMILY = new Set(['tres', 'tres-nh', 'tres-async', 'synchronous']);

/** True for TRES and its ablations, specs included (`tres:gamma=0.5`, `synchronous:buckets=10`). */
export function isTresFamily(strategy: string): boolean {
  return TRES_FAMILY.has(strategy.split(':')[0] as string);
}

/** Async (Han et al.), the Table 3 row that the journal's Table 4 sets beside TRES_Async. */
const ASYNC_STRATEGY = 'han-async';

/** One topic's benchmark, as its results.json holds it. */
export interface TopicResults {
  topic: string;
  dir: string;
  rows: ConfigRow[];
  maxPages: number;
  runs: number;
}

/** The claim checked on one topic. */
export interface ClaimCheck {
  topic: string;
  /** Rows of the strategy on the Pareto front. */
  onFront: string[];
  /** Ranked rows of rivals that no row of the strategy dominates (what the claim counts). */
  undominated: string[];
  /** Ranked rows of the strategy's ablations (Table 4) that no row of it dominates; not counted. */
  undominatedAblations: string[];
  /** Harvest rate at no limit as a share of the oracle's; undefined without both rows. */
  oracleShare: Spread | undefined;
  isMet: boolean;
}

/**
 * Reads `DIR/results.json` of a `npm run lab -- bench crawl` run.
 * @throws ConfigError naming the file when it is missing or not a crawl benchmark's results
 */
export function readTopicResults(dir: string): TopicResults {
  const file = join(dir, 'results.json');
  let data: {
    topic?: { name?: string };
    options?: { maxPages?: number; runs?: number };
    rows?: ConfigRow[];
  };
  try {
    data = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new ConfigError(
      `cannot read ${file}: ${(error as Error).message}; pass folders written by npm run lab -- bench crawl --out`,
      { context: { file } },
    );
  }
  if (!Array.isArray(data.rows) || typeof data.topic?.name !== 'string')
    throw new ConfigError(`${file} is not the results of npm run lab -- bench crawl (no topic or rows)`, {
      context: { file },
    });
  return {
    topic: data.topic.name,
    dir,
    rows: data.rows.map(revive),
    maxPages: Number(data.options?.maxPages ?? Number.NaN),
    runs: Number(data.options?.runs ?? Number.NaN),
  };
}

/** JSON writes NaN as null: back to NaN, so that formatting says "n/a". */
function revive(row: ConfigRow): ConfigRow {
  const fix = (s: Spread | null | undefined) =>
    s ? { mean: s.mean ?? Number.NaN, std: s.std ?? Number.NaN } : { mean: Number.NaN, std: Number.NaN };
  return {
    ...row,
    harvestRate: fix(row.harvestRate),
    relevantDomains: fix(row.relevantDomains),
  };
}

/** Checks the claim for `subject` (a strategy name) on one topic's rows. */
export function checkClaim(topic: string, rows: readonly ConfigRow[], subject = 'tres'): ClaimCheck {
  const ranked = rows.filter((r) => r.isRanked && !r.isReference);
  const own = ranked.filter((r) => r.strategy === subject);
  // Specs of the same strategy (tres:gamma=0.5) and, for a TRES strategy, the TRES family are its
  // ablations: not rivals.
  const isAblation = (strategy: string) =>
    strategy.startsWith(`${subject}:`) || (isTresFamily(subject) && isTresFamily(strategy));
  const others = ranked.filter((r) => r.strategy !== subject && !isAblation(r.strategy));
  const ablations = ranked.filter((r) => r.strategy !== subject && isAblation(r.strategy));
  // The front of the subject's rows and its rivals: an ablation row dominating a tres row does
  // not push it off (the report's own front, `isParetoOptimal`, includes every row).
  const front = new Set(rowParetoFront([...own, ...others]));
  const onFront = own.filter((_, i) => front.has(i)).map((r) => r.label);
  const notDominated = (rows: readonly ConfigRow[]) =>
    rows.filter((o) => !own.some((t) => rowDominates(t, o))).map((r) => r.label);
  const undominated = notDominated(others);
  const atNone = rows.find((r) => r.strategy === subject && r.domainLimit === 'none');
  const oracleShare = atNone?.oracleHarvestShare;
  return {
    topic,
    onFront,
    undominated,
    undominatedAblations: notDominated(ablations),
    oracleShare,
    isMet:
      onFront.length > 0 &&
      undominated.length === 0 &&
      oracleShare !== undefined &&
      oracleShare.mean >= ORACLE_SHARE_GOAL,
  };
}

/** The whole summary in Markdown. */
export function summaryReport(topics: readonly TopicResults[], subject = 'tres', command?: string): string {
  const checks = topics.map((t) => checkClaim(t.topic, t.rows, subject));
  const met = checks.filter((c) => c.isMet).length;
  const limits = [...new Set(topics.flatMap((t) => t.rows.map((r) => r.domainLimit)))];
  const strategies = [...new Set(topics.flatMap((t) => t.rows.map((r) => r.strategy)))];
  const asLines = (lines: readonly string[]) => lines.map((line) => `${line}\n`).join('');
  return fillTemplate('summary-report.md', {
    topicCount: `${topics.length} topic${topics.length === 1 ? '' : 's'}`,
    folders: topics.map((t) => `\`${t.dir}\``).join(', '),
    subject,
    oracleGoal: (ORACLE_SHARE_GOAL * 100).toFixed(0),
    ablationNote: isTresFamily(subject)
      ? "TRES with a part removed or changed (tres-nh, tres-async, synchronous, spec variants) is the journal's ablation study (Table 4, below), listed in the last column but not counted"
      : `specs of ${subject} are not counted`,
    met: `${met} of ${checks.length} topic${checks.length === 1 ? '' : 's'}`,
    claimRows: asLines(
      checks.map((c, i) => {
        const t = topics[i] as TopicResults;
        return `| ${c.topic} | ${t.runs} × ${t.maxPages} | ${c.onFront.join(', ') || 'none'} | ${c.undominated.join(', ') || 'none'} | ${c.oracleShare ? pct(c.oracleShare) : 'n/a'}% | ${c.isMet ? 'met' : 'not met'} | ${c.undominatedAblations.join(', ') || 'none'} |`;
      }),
    ),
    tables: asLines([
      ...ablationTable(topics, strategies, limits, subject),
      ...limits.flatMap((limit) => limitTables(topics, strategies, limit)),
    ]),
    writtenBy: command ? `\nWritten by \`${command}\` from the folders' results.json.\n` : '',
  });
}

/**
 * The journal's Table 4 layout: the strategy and its ablations (and Async, which the journal sets
 * beside TRES_Async) as `crawler_b` rows, each topic's harvest rate and relevant domains as
 * columns. Empty when the strategy is not of the TRES family or the folders hold no ablation.
 */
function ablationTable(
  topics: readonly TopicResults[],
  strategies: readonly string[],
  limits: readonly string[],
  subject: string,
): string[] {
  if (!isTresFamily(subject)) return [];
  const family = strategies.filter(isTresFamily);
  if (family.length < 2) return [];
  const rows = [...family, ...strategies.filter((s) => s === ASYNC_STRATEGY)];
  const lines = limits.flatMap((limit) =>
    rows.flatMap((s) => {
      const found = topics.map((t) => t.rows.find((r) => r.strategy === s && r.domainLimit === limit));
      const first = found.find((r) => r !== undefined);
      if (first === undefined) return [];
      const cells = found.map((r) => {
        if (!r) return ' | ';
        return `${pct(r.harvestRate)}${runsMark(r)} | ${num(r.relevantDomains)}`;
      });
      const label = s === subject ? `**${first.label}**` : first.label;
      return [`| ${label} | ${cells.join(' | ')} |`];
    }),
  );
  return [
    '## Table 4 layout: TRES and its ablations',
    '',
    `The journal's ablation study (section 3.6, Table 4): ${subject} against TRES with a part removed or changed, at every domain limit (\`crawler_b\`), with Async (Han et al.) beside them. Harvest rate % and relevant domains, mean ± std over seeds.`,
    '',
    `| crawler | ${topics.map((t) => `${t.topic} HR | ${t.topic} domains`).join(' | ')} |`,
    `|---|${topics.map(() => '---:|---:').join('|')}|`,
    ...lines,
    '',
  ];
}

/** " (unranked)" or " (k dry)" after a row's figure, when its runs ran out of URLs. */
function runsMark(r: ConfigRow): string {
  if (!r.isRanked) return ' (unranked)';
  return r.dryRuns > 0 ? ` (${r.dryRuns} dry)` : '';
}

/** Harvest rate and relevant domains of every strategy at one domain limit, topics as columns. */
function limitTables(
  topics: readonly TopicResults[],
  strategies: readonly string[],
  limit: string,
): string[] {
  const header = `| strategy | ${topics.map((t) => t.topic).join(' | ')} |`;
  const rule = `|---|${topics.map(() => '---:').join('|')}|`;
  const table = (metric: 'harvestRate' | 'relevantDomains', format: (s: Spread) => string) => {
    const best = topics.map((t) => {
      const ranked = t.rows.filter((r) => r.domainLimit === limit && r.isRanked && !r.isReference);
      return new Set(bestRowsWithTies(ranked, metric).map((i) => ranked[i]?.label));
    });
    return strategies
      .filter((s) => topics.some((t) => t.rows.some((r) => r.strategy === s && r.domainLimit === limit)))
      .map((s) => {
        const cells = topics.map((t, i) => {
          const r = t.rows.find((x) => x.strategy === s && x.domainLimit === limit);
          if (!r) return '';
          let text = format(r[metric]);
          if (best[i]?.has(r.label)) text = `**${text}**`;
          if (r.isParetoOptimal) text += ' ★';
          return text + runsMark(r);
        });
        return `| ${s} | ${cells.join(' | ')} |`;
      });
  };
  const title = limit === 'none' ? 'no domain limit' : `domain limit ${limit}`;
  return [
    `## Harvest rate %, ${title}`,
    '',
    header,
    rule,
    ...table('harvestRate', pct),
    '',
    `## Relevant domains, ${title}`,
    '',
    header,
    rule,
    ...table('relevantDomains', num),
    '',
  ];
}
