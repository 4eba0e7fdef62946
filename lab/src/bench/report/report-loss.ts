/**
 * Chakrabarti et al.'s figure of merit (WWW 2002, section 1: "reduction in loss rate is the primary
 * goal"): the loss, irrelevant pages fetched by step t, of the apprentice against its baseline
 * critic (`apprentice:learn=0`, best-first on the linking page's relevance) and best-first.
 */
import type { RunResult } from '../crawl/index.js';

/** A multiple of the 200-page points every run's curve has (see `WILCOXON_EVERY`). */
const EVERY = 600;

/** Mean irrelevant pages fetched by step t over the runs that reached t (undefined if none). */
function meanLoss(runs: readonly RunResult[], t: number): number | undefined {
  const losses = runs.flatMap((r) => {
    const p = r.curve.find((c) => c.step === t);
    return p ? [t * (1 - p.harvestRate)] : [];
  });
  return losses.length === 0 ? undefined : losses.reduce((a, b) => a + b, 0) / losses.length;
}

/** A Markdown section for every domain limit where `apprentice` ran; '' when it did not. */
export function lossSection(runs: readonly RunResult[]): string {
  const compared = ['apprentice', 'apprentice:learn=0', 'best-first'];
  const limits = [...new Set(runs.filter((r) => r.strategy === 'apprentice').map((r) => r.domainLimit))];
  if (limits.length === 0) return '';
  const maxPages = Math.max(...runs.map((r) => r.maxPages));
  const steps: number[] = [];
  for (let t = EVERY; t <= maxPages; t += EVERY) steps.push(t);
  const parts = limits.map((limit) => {
    const rows = compared
      .filter((s) => runs.some((r) => r.strategy === s && r.domainLimit === limit))
      .map((s) => {
        const mine = runs.filter((r) => r.strategy === s && r.domainLimit === limit);
        return `| ${s} | ${steps.map((t) => meanLoss(mine, t)?.toFixed(0) ?? '').join(' | ')} |`;
      });
    return `### Domain limit ${limit}\n\n| strategy | ${steps.join(' | ')} |\n|---|${steps.map(() => '---:').join('|')}|\n${rows.join('\n')}`;
  });
  return `## Loss (Chakrabarti et al.)

Irrelevant pages fetched (by the ground truth) by step t (every ${EVERY} pages), mean over runs: the apprentice against its own baseline critic (\`apprentice:learn=0\`) and best-first. Loss rate = loss / t = 1 − harvest rate.

${parts.join('\n\n')}
`;
}
