/**
 * The one English stopword list of tres, used by the tokenizer everywhere (training, crawling,
 * keyword expansion), so a model sees at crawl time what it saw in training.
 *
 * Origin: NLTK's English list (179 words), which the TRES authors' code uses. Contraction
 * fragments ("don", "ll", "ve") are in it because the tokenizer splits "don't" into "don" "t".
 */

const WORDS = `i me my myself we our ours ourselves you you're you've you'll you'd your yours yourself
yourselves he him his himself she she's her hers herself it it's its itself they them their theirs
themselves what which who whom this that that'll these those am is are was were be been being have
has had having do does did doing a an the and but if or because as until while of at by for with
about against between into through during before after above below to from up down in out on off
over under again further then once here there when where why how all any both each few more most
other some such no nor not only own same so than too very s t can will just don don't should
should've now d ll m o re ve y ain aren aren't couldn couldn't didn didn't doesn doesn't hadn hadn't
hasn hasn't haven haven't isn isn't ma mightn mightn't mustn mustn't needn needn't shan shan't
shouldn shouldn't wasn wasn't weren weren't won won't wouldn wouldn't`;

/** English stopwords, lowercase. Words with an apostrophe are kept for callers that split on spaces. */
export const STOPWORDS: ReadonlySet<string> = new Set(WORDS.split(/\s+/).filter((w) => w.length > 0));

/** True if `word` (lowercase) is an English stopword. */
export function isStopword(word: string): boolean {
  return STOPWORDS.has(word);
}
