/**
 * What a topic's rules select in a built DocWeb: relevant pages per site and per rule (a rule
 * that matches nothing is almost always a typo), and the seed check.
 */
import type { DocwebDb } from './docweb-db.js';
import { checkSeeds, type SeedCheckReport } from './seed-check.js';
import { makeLabeler, type Topic, type TopicRule } from './topic.js';

/** Pages one rule matches. */
export interface RuleCount {
  rule: TopicRule;
  /** Pages of the build the rule matches on its own. */
  pages: number;
}

/** Result of {@link topicReport}. */
export interface TopicReport {
  topic: string;
  /** Pages labelled relevant (rules and exceptions applied). */
  relevantPages: number;
  totalPages: number;
  /** Relevant pages per site (`host + prefix`) that has any, most first. */
  sites: { site: string; relevant: number; pages: number }[];
  rules: RuleCount[];
  exceptions: RuleCount[];
  seeds: SeedCheckReport;
}

/** Labels every page of the build with the topic and counts per site and rule. */
export function topicReport(db: DocwebDb, topic: Topic): TopicReport {
  const sites = new Map(db.sites().map((s) => [s.id, s]));
  const perSite = new Map<number, number>();
  const pages = db.pages();
  let relevantPages = 0;
  const ruleLabelers = topic.relevant.map((r) => makeLabeler([r], [], topic.hubIndex));
  const exceptLabelers = topic.except.map((r) => makeLabeler([r], [], topic.hubIndex));
  const ruleCounts = topic.relevant.map((rule) => ({ rule, pages: 0 }));
  const exceptCounts = topic.except.map((rule) => ({ rule, pages: 0 }));
  for (const page of pages) {
    ruleLabelers.forEach((label, i) => {
      if (label(page.url)) (ruleCounts[i] as RuleCount).pages++;
    });
    exceptLabelers.forEach((label, i) => {
      if (label(page.url)) (exceptCounts[i] as RuleCount).pages++;
    });
    if (!topic.labelOf(page.url)) continue;
    relevantPages++;
    perSite.set(page.siteId, (perSite.get(page.siteId) ?? 0) + 1);
  }
  const siteRows = [...perSite.entries()]
    .map(([id, relevant]) => {
      const s = sites.get(id);
      return { site: s ? `${s.host}${s.prefix}` : String(id), relevant, pages: s?.pages ?? 0 };
    })
    .sort((a, b) => b.relevant - a.relevant || (a.site < b.site ? -1 : 1));
  return {
    topic: topic.name,
    relevantPages,
    totalPages: pages.length,
    sites: siteRows,
    rules: ruleCounts,
    exceptions: exceptCounts,
    seeds: checkSeeds(db, topic.seeds),
  };
}

/** The report as text lines for the terminal. */
export function formatTopicReport(r: TopicReport): string[] {
  const ruleText = (c: RuleCount) =>
    `${String(c.pages).padStart(6)}  ${c.rule.host}${c.rule.prefix}${c.rule.pattern ? `  ~ /${c.rule.pattern.source}/` : ''}` +
    (c.rule.sections ? `  sections ${c.rule.sections.join(',')}` : '') +
    (c.rule.tags ? `  tags ${c.rule.tags.join(',')}` : '') +
    (c.pages === 0 ? '   <- matches no page' : '');
  const lines = [
    `topic ${r.topic}: ${r.relevantPages} relevant pages of ${r.totalPages}, on ${r.sites.length} sites`,
    ...r.sites.map((s) => `${String(s.relevant).padStart(6)} / ${String(s.pages).padEnd(6)} ${s.site}`),
    'rules (pages each rule matches):',
    ...r.rules.map(ruleText),
  ];
  if (r.exceptions.length > 0) lines.push('exceptions:', ...r.exceptions.map(ruleText));
  const s = r.seeds;
  lines.push(
    `seeds: ${s.found.length} found, ${s.missing.length} missing, ${s.links.length} links between seeds -> ` +
      (s.isIndependent ? 'independent' : 'NOT independent'),
    ...s.missing.map((u) => `  missing: ${u}`),
    ...s.links.map((l) => `  link: ${l.from} -> ${l.to}`),
    ...s.sharedSites.map((urls) => `  same site: ${urls.join(' , ')}`),
  );
  return lines;
}
