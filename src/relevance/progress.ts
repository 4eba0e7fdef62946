/**
 * Training progress: what trainers report after each epoch (and each batch for the slow
 * models), and a progress bar that renders it on a terminal (one line per epoch otherwise).
 */
import type { ModelName } from './types.js';

/** One progress report. */
export interface TrainingProgress {
  model: ModelName;
  epoch: number;
  maxEpochs: number;
  /** Batch within the epoch (BiLSTMs only), 1-based, and the batch count. */
  batch?: number;
  batches?: number;
  /** Mean training loss of the epoch (after it ends) or of the batches so far. */
  trainLoss?: number;
  /** Validation loss after the epoch. */
  valLoss?: number;
  /** True if this epoch's validation loss is the best so far (its weights are kept). */
  isBest?: boolean;
}

/** A stream the bar writes to (process.stderr). */
export interface ProgressStream {
  write(chunk: string): unknown;
  isTTY?: boolean;
}

/**
 * A progress callback that draws `[#####-----] model epoch e/E batch b/B loss x` on a terminal
 * (redrawn in place at most every 100 ms) or prints one line per finished epoch elsewhere.
 */
export function createProgressBar(stream: ProgressStream, widthChars = 24): (p: TrainingProgress) => void {
  let lastDrawMs = 0;
  return (p) => {
    const isEpochEnd = p.valLoss !== undefined;
    const fraction = (p.epoch - 1 + (isEpochEnd ? 1 : (p.batch ?? 0) / (p.batches ?? 1))) / p.maxEpochs;
    const filled = Math.round(Math.min(1, fraction) * widthChars);
    const bar = `[${'#'.repeat(filled)}${'-'.repeat(widthChars - filled)}]`;
    const losses =
      (p.trainLoss !== undefined ? ` loss ${p.trainLoss.toFixed(4)}` : '') +
      (p.valLoss !== undefined ? ` val ${p.valLoss.toFixed(4)}${p.isBest ? ' *' : ''}` : '');
    const batch = p.batch !== undefined && !isEpochEnd ? ` batch ${p.batch}/${p.batches}` : '';
    const line = `${bar} ${p.model} epoch ${p.epoch}/${p.maxEpochs}${batch}${losses}`;
    if (stream.isTTY === true) {
      const now = performance.now();
      if (!isEpochEnd && now - lastDrawMs < 100) return;
      lastDrawMs = now;
      stream.write(`\r${line}\x1b[K${isEpochEnd ? '\n' : ''}`);
    } else if (isEpochEnd) {
      stream.write(`${line}\n`);
    }
  };
}
