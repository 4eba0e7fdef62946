/**
 * Which classifier the crawl uses by default for pages (the reward) and for anchors (the
 * state-action feature), chosen by measurement (`npm run bench -- relevance`,
 * results/relevance/relevance-bench.md; two busy cores):
 * - pages: KwBiLSTM, the papers' reward. Scored by the plain forward pass
 *   (`bilstm-inference.ts`) it takes 3-3.5 ms for one DocWeb page (290-320 pages/s), so with
 *   naive Bayes on all of a page's out-links the classifiers sustain 224 (hardware, 99 links per
 *   page) and 281 (statistics, 46 links) pages/s, and 466-1055 on the synthetic webs: more than
 *   a polite crawl fetches unless it keeps hundreds of hosts busy at once. Its Table-1 scores
 *   there are under the benchmark's 5-epoch budget (macro F1 73.3 hardware, 87.7 statistics);
 *   the SVM scored 97.0 and 97.3 at three times the speed, so it is a strong alternative;
 * - anchors: multinomial naive Bayes. On anchors labelled by their target page it scored macro
 *   F1 95.9 and 95.7 on the synthetic webs and 89.5 on DocWeb hardware (SVM 68.4, 65.4, 75.7;
 *   mean word vectors 91.1, 58.5, 59.2) at 120-155k anchors/s; on DocWeb statistics the SVM
 *   did better (74.2 against 61.0).
 */
import type { ModelName } from './types.js';

/** Default page (reward) classifier. */
export const DEFAULT_PAGE_MODEL: ModelName = 'kwbilstm';

/** Default anchor classifier. */
export const DEFAULT_ANCHOR_MODEL: ModelName = 'nb';
