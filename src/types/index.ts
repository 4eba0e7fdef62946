/** The crawl vocabulary shared by every room: links, actions, outcomes, selection, the judge. */
export type {
  Action,
  DiscoveredLink,
  LinkContext,
  LinkContextSource,
  LinkContextWindow,
  Outcome,
  SelectionContext,
} from './crawl.js';
export type { AnchorToJudge, PageJudge, PageToJudge } from './judge.js';
