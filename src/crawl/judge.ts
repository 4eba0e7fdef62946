/** The judge contract lives in the types room; re-exported for the crawl room's callers. */
export type { AnchorToJudge, PageJudge, PageToJudge } from '../types/index.js';
