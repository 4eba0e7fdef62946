/**
 * What `tres train` says about the model it saved: precision, recall and F1 on documents held out
 * of the training of the model it measured (the saved one is then trained on every document unless
 * `--no-refit`), and a warning when they are poor or a class is too small to trust them. A
 * model that misses most relevant pages should say so before a crawl, not after it.
 */
import { type HeldOutResult, wilsonInterval } from '../relevance/index.js';

/** Thresholds of the warnings, as fractions and document counts. */
export const TRAIN_WARNINGS = {
  /** Recall or precision of the relevant class below this is called poor. @default 0.7 */
  poorBelow: 0.7,
  /** A class with fewer training documents than this is called tiny. @default 30 */
  tinyClassBelow: 30,
} as const;

const pct = (x: number) => `${(x * 100).toFixed(1)}%`;
/** A share and its 95% interval, with the counts it comes from. */
const share = (what: string, successes: number, trials: number, of: string) => {
  const [low, high] = wilsonInterval(successes, trials);
  return `${what} ${(low * 100).toFixed(0)}-${(high * 100).toFixed(0)}% (${successes} of ${trials} ${of})`;
};

/**
 * The lines printed after training: the held-out figures (or why there are none), then warnings.
 * @param documents all documents loaded; `relevant` of them relevant
 * @param savedOn documents the saved model was trained on (all of them unless `--no-refit`)
 */
export function formatTrainReport(
  heldOut: HeldOutResult | undefined,
  documents: number,
  relevant: number,
  holdout: number | false,
  savedOn = heldOut?.trainedOn ?? documents,
): { lines: string[]; warnings: string[] } {
  const lines: string[] = [];
  const warnings: string[] = [];
  const irrelevant = documents - relevant;
  if (heldOut) {
    const m = heldOut.metrics;
    lines.push(
      `held-out test: ${heldOut.documents} documents the model never saw (${heldOut.relevant} relevant, ${heldOut.documents - heldOut.relevant} irrelevant)`,
      `  precision ${pct(m.precision)}  recall ${pct(m.recall)}  F1 ${pct(heldOut.relevantF1)}  macro F1 ${pct(m.macroF1)}  accuracy ${pct(m.accuracy)}`,
    );
    // How much so few held-out documents can say: the range the true figures lie in, 19 times in 20.
    const c = heldOut.confusion;
    lines.push(
      `  95% intervals: ${share('precision', c.tp, c.tp + c.fp, 'it called relevant')}, ${share('recall', c.tp, c.tp + c.fn, 'relevant found')}`,
    );
    if (savedOn > heldOut.trainedOn)
      lines.push(
        `  (of a model trained on the other ${heldOut.trainedOn}; the saved model was then trained on all ${savedOn} documents, --no-refit to save the measured one)`,
      );
    if (m.recall < TRAIN_WARNINGS.poorBelow) {
      warnings.push(
        `recall ${pct(m.recall)}: the model missed ${pct(1 - m.recall)} of the held-out relevant pages, and a crawl judged by it will miss them too; give it more relevant documents, ones like the pages the crawl will meet`,
      );
    }
    if (m.precision < TRAIN_WARNINGS.poorBelow) {
      warnings.push(
        `precision ${pct(m.precision)}: ${pct(1 - m.precision)} of the pages it calls relevant are not; give it more irrelevant documents, ones like the pages the crawl will meet`,
      );
    }
  } else if (holdout === false) {
    lines.push('held-out test: none (--no-holdout): nothing says how good this model is');
  } else {
    lines.push(
      `held-out test: none: with ${relevant} relevant and ${irrelevant} irrelevant documents none can be held out (each class needs at least 3), so nothing says how good this model is`,
    );
  }
  const smallest = Math.min(relevant, irrelevant);
  if (smallest < TRAIN_WARNINGS.tinyClassBelow) {
    const which = relevant <= irrelevant ? 'relevant' : 'irrelevant';
    const docs = `${smallest} ${which} document${smallest === 1 ? '' : 's'}`;
    // Only a measured model has figures above to call rough.
    warnings.push(
      heldOut
        ? `only ${docs}: the figures above are rough and the model may not generalise; aim for ${TRAIN_WARNINGS.tinyClassBelow} or more of each class`
        : `only ${docs}: the model was saved, but it learned from too few examples to judge pages it has not seen, and it was not measured; aim for ${TRAIN_WARNINGS.tinyClassBelow} or more of each class`,
    );
  }
  return { lines, warnings };
}
