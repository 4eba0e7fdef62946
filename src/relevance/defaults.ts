/**
 * Which classifier the crawl uses by default for pages (the reward) and for anchors (the
 * state-action feature), chosen by measurement (`npm run bench`, relevance part):
 * - pages: KwBiLSTM, the papers' reward; with WASM it scores 420-520 pages/s on two busy
 *   cores, far above any polite crawl, so it does not limit the loop (the linear models are
 *   10-20 times faster and matched it on the synthetic webs, so they remain good choices);
 * - anchors: multinomial naive Bayes. On anchors of synthetic webs labelled by their target
 *   page, it scored macro F1 96.0 (real-word topics) and 95.7 (pseudo-words) at 140-210k
 *   anchors/s, against 94.1 / 58.2 for the mean-word-vector model (pseudo-words have no
 *   vectors) and 68.6 / 74.3 for the SVM.
 */
import type { ModelName } from './types.js';

/** Default page (reward) classifier. */
export const DEFAULT_PAGE_MODEL: ModelName = 'kwbilstm';

/** Default anchor classifier. */
export const DEFAULT_ANCHOR_MODEL: ModelName = 'nb';
