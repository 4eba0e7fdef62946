/**
 * Which classifier the crawl uses by default for pages (the reward) and for anchors (the
 * state-action feature), chosen by measurement (results/relevance/README.md; DocWeb samples of
 * 100 relevant and 900 irrelevant pages per topic, 5-fold cross-validation, seed bench):
 * - pages: the linear SVM on TF-IDF (ACHE's page classifier). Macro F1 94.5 (hardware), 98.0
 *   (statistics), 82.4 (programming languages), 92.3 (typesetting), 88.5 (system
 *   administration), the best of the five classifiers on every topic; KwBiLSTM, the papers'
 *   reward, reached 82.4 on hardware with its best measured settings, because the words that
 *   mark a DocWeb topic are the names of its programs and sites (hwloc, lirc, openocd,
 *   statsmodels, polkit), which GloVe either lacks or reads in another sense. One core scores
 *   1,955 DocWeb pages per CPU second with it, one page per call (KwBiLSTM: 478);
 * - anchors: multinomial naive Bayes, about 111,000 anchors per CPU second on DocWeb hardware
 *   (SVM 119,000, KwBiLSTM 6,000). Against the labels of the link targets it scored anchor
 *   macro F1 87.2, 60.3, 93.8, 73.7 and 76.9 on the five topics (SVM 71.1, 73.9, 58.9, 74.9,
 *   61.2): better on three, worse on statistics.
 * KwBiLSTM and the others stay available by name (`--model kwbilstm`).
 */
import type { ModelName } from './types.js';

/** Default page (reward) classifier. */
export const DEFAULT_PAGE_MODEL: ModelName = 'svm';

/** Default anchor classifier. */
export const DEFAULT_ANCHOR_MODEL: ModelName = 'nb';
