/**
 * `tres keywords`: keyword expansion (Algorithm 1 of the TRES papers) on a relevant corpus, with
 * the statistics of Table 2; `--out` writes the expanded list for `tres train --expanded`.
 */
import { writeFileSync } from 'node:fs';
import type { Command } from 'commander';
import { loadFolder } from '../../relevance/index.js';
import {
  expandKeywords,
  KeywordSet,
  keywordStatistics,
  loadWordVectors,
  pageTokens,
  readWordList,
} from '../../text/index.js';

/** Options of `tres keywords` as commander gives them. */
export interface KeywordsCliOptions {
  keywords: string;
  corpus: string;
  keyphrases?: string;
  irrelevant?: string;
  out?: string;
  json?: boolean;
  skipBad?: boolean;
}

const fmt = (x: number) => (Number.isFinite(x) ? x.toFixed(2) : 'n/a');

/** Registers `tres keywords`. */
export function registerKeywordsCommand(program: Command): void {
  program
    .command('keywords')
    .description(
      'expand seed keywords with words of a relevant corpus (Algorithm 1: keep a word whose mean cosine ' +
        'similarity to the seeds exceeds the mean pairwise similarity of the seeds) and print Table-2 statistics',
    )
    .requiredOption('--keywords <file>', 'seed keywords, one per line (# comments)')
    .requiredOption('--corpus <dir>', 'folder of relevant documents (HTML or text, searched recursively)')
    .option('--keyphrases <file>', 'keyphrases, one per line: given, never expanded')
    .option(
      '--irrelevant <dir>',
      'folder of irrelevant documents: a discovered word must occur in at least 3 times the share of ' +
        'relevant documents as of these (document-frequency contrast), and Table 2 counts keywords in them',
    )
    .option(
      '--out <file>',
      'write the expanded keywords, one per line (for tres train --keywords FILE --expanded)',
    )
    .option('--json', 'print the result as JSON')
    .option('--skip-bad', 'skip unreadable, empty or non-English documents instead of failing')
    .addHelpText(
      'after',
      '\nExample:\n  tres keywords --keywords seeds.txt --corpus data/relevant --irrelevant data/irrelevant --out keywords.txt',
    )
    .action(async (opts: KeywordsCliOptions) => {
      const seeds = new KeywordSet(readWordList(opts.keywords, 'keywords')).keywords;
      const keyphrases = opts.keyphrases ? readWordList(opts.keyphrases, 'keyphrases') : [];
      const loadOptions = { isSkippingBad: opts.skipBad === true };
      const relevant = loadFolder(opts.corpus, 1, loadOptions).map((d) => pageTokens(d.title, d.text));
      const irrelevant = opts.irrelevant
        ? loadFolder(opts.irrelevant, 0, loadOptions).map((d) => pageTokens(d.title, d.text))
        : [];
      const vectors = await loadWordVectors({ onProgress: (m) => console.error(m) });
      const expansion = expandKeywords(seeds, relevant, vectors, { irrelevant });
      const stats = keywordStatistics(
        seeds,
        expansion.discovered.map((d) => d.word),
        relevant,
        irrelevant,
      );
      if (opts.out) writeFileSync(opts.out, `${expansion.keywords.join('\n')}\n`);
      if (opts.json) {
        console.log(JSON.stringify({ ...expansion, keyphrases, statistics: stats }, null, 2));
        return;
      }
      const lines = [
        `seed keywords (${expansion.seeds.length} with vectors): ${expansion.seeds.join(', ')}`,
        ...(expansion.seedsWithoutVector.length > 0
          ? [`seeds without a word vector: ${expansion.seedsWithoutVector.join(', ')}`]
          : []),
        `threshold (mean pairwise seed similarity): ${expansion.threshold.toFixed(4)}`,
        `candidates tested: ${expansion.candidates}`,
        `discovered keywords (${expansion.discovered.length}): ${expansion.discovered.map((d) => `${d.word} ${d.score.toFixed(3)}`).join(', ')}`,
        ...(expansion.rejected.length > 0
          ? [
              `turned away as about as common in irrelevant documents (${expansion.rejected.length}): ${expansion.rejected.map((d) => d.word).join(', ')}`,
            ]
          : []),
        ...(keyphrases.length > 0 ? [`keyphrases (not expanded): ${keyphrases.join('; ')}`] : []),
        '',
        '| Table 2 | value |',
        '|---|---|',
        `| mean count of discovered keywords per relevant document | ${fmt(stats.meanDiscoveredPerRelevant)} |`,
        `| mean count of discovered keywords per irrelevant document | ${fmt(stats.meanDiscoveredPerIrrelevant)} |`,
        `| # initial keywords | ${stats.initialKeywords} |`,
        `| # discovered keywords | ${stats.discoveredKeywords} |`,
        '',
        `mean count of all keywords per relevant document: ${fmt(stats.meanKeywordsPerRelevant)}; ` +
          `per irrelevant document: ${fmt(stats.meanKeywordsPerIrrelevant)}; SHORTCUT1 = ${stats.shortcut1}`,
        `documents: ${stats.relevantDocuments} relevant, ${stats.irrelevantDocuments} irrelevant`,
        ...(opts.out ? [`expanded keywords written to ${opts.out}`] : []),
      ];
      console.log(lines.join('\n'));
    });
}
