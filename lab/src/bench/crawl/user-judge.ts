/**
 * The judge a user can give (`npm run lab -- bench crawl --judge user:examples=N,answers=M`): the
 * cold-start judge from the topic's keywords and N example relevant pages, which a simulated user
 * picks: drawn with the run's seed, uniformly among the web's relevant pages, and fetched from
 * the web as `tres crawl --examples` fetches a list of URLs. Its M answers come from the ground
 * truth as the crawl asks (see `RunSpec.answers`).
 */
import { ConfigError, createRng, type PageJudge } from 'tres-crawler';
import type { UserJudgeSpec } from './crawl-bench-options.js';
import type { BenchWeb } from './crawl-bench-topic.js';

/** The judge factory of a user spec, its name (stored with the runs) and its report line. */
export async function userJudge(
  spec: UserJudgeSpec,
  web: BenchWeb,
): Promise<{
  judge: (run: number) => Promise<PageJudge>;
  name: string;
  description: string;
  /** The judge does not learn itself: the answers retrain it by relevance feedback. */
  isRetrainedOnAnswers?: boolean;
}> {
  // Loaded on demand, as the model judges are: the relevance room pulls in TensorFlow.
  const { ColdStartJudge, fetchExamplePages } = await import('tres-crawler/internals');
  const relevant = spec.examples > 0 ? web.relevantPages() : [];
  if (spec.examples > 0 && relevant.length === 0)
    throw new ConfigError(`judge: the web has no relevant page to draw examples from`, {
      context: { field: 'judge' },
    });
  const s = spec.settings;
  const settings = Object.entries(s).map(([k, v]) => `,${k}=${v}`);
  const name = `user:examples=${spec.examples},answers=${spec.answers}${settings.join('')}`;
  if (s.feedback === 1) {
    // What `tres crawl --ui` does with keywords and no examples: the keyword judge, retrained on
    // the answers by relevance feedback (a model trained in a worker thread, swapped in when its
    // cross-validated F1 on the answers is not worse).
    if (spec.examples > 0)
      throw new ConfigError('judge: feedback=1 takes no examples', { context: { field: 'judge' } });
    const { KeywordJudge } = await import('tres-crawler');
    return {
      judge: async () => new KeywordJudge({ keywords: web.topic.keywords }),
      name,
      isRetrainedOnAnswers: true,
      description: `the keyword judge (${name}): the topic's ${web.topic.keywords.length} keywords, retrained on the answers by relevance feedback`,
    };
  }
  const judge = async (run: number): Promise<PageJudge> => {
    const examples = [];
    // A page the crawler could not use as an example (no words, not English) is passed over,
    // as a user would pick another.
    for (const url of createRng(`examples-${run}`).shuffle([...relevant])) {
      if (examples.length >= spec.examples) break;
      try {
        examples.push(...(await fetchExamplePages([url], web.net)));
      } catch (error) {
        if (!(error instanceof ConfigError)) throw error;
      }
    }
    return new ColdStartJudge({
      keywords: web.topic.keywords,
      examples,
      seed: run,
      ...(s.learn === 0 ? { firstFitAtPages: false } : {}),
      ...(s.share === undefined ? {} : { exampleShare: s.share }),
      ...(s.first === undefined ? {} : { firstFitAtPages: s.first }),
      ...(s.every === undefined ? {} : { maxRefitEveryPages: s.every }),
    });
  };
  return {
    judge,
    name,
    description: `the cold-start judge (${name}): the topic's ${web.topic.keywords.length} keywords${spec.examples > 0 ? ` and ${spec.examples} example pages drawn with the run's seed from the web's ${relevant.length} relevant pages` : ''}, learning from the pages it judges`,
  };
}
