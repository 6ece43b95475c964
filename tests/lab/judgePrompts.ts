/**
 * What the benchmark runner asks its judge model, after DeepResearch Bench's RACE (per-task weights
 * for four dimensions, the report scored against a reference) and FACT (is each cited statement
 * supported by the page it cites). The marks let the scripted model tell these prompts apart.
 */
export const JUDGE_WEIGHTS_MARK = 'RACE weights';
export const JUDGE_SCORE_MARK = 'RACE scoring';
export const JUDGE_FACT_MARK = 'FACT check';

export const RACE_DIMENSIONS = ['comprehensiveness', 'insight', 'instruction_following', 'readability'] as const;
export type RaceDimension = (typeof RACE_DIMENSIONS)[number];

export const WEIGHTS_PROMPT =
  `${JUDGE_WEIGHTS_MARK}. You evaluate deep research reports. For the research task below, decide how much each dimension matters ` +
  'for judging a report that answers it: comprehensiveness (covers what the task needs), insight (analysis beyond restating sources), ' +
  'instruction_following (does what the task asks, in its scope and form) and readability (clear structure and language). ' +
  'Answer with one JSON object only, the four weights summing to 1: {"comprehensiveness": 0.3, "insight": 0.3, "instruction_following": 0.2, "readability": 0.2}';

export const SCORE_PROMPT =
  `${JUDGE_SCORE_MARK}. You evaluate deep research reports. Score each report in <report name="…"> tags on each dimension from 0 to 10 ` +
  '(comprehensiveness, insight, instruction_following, readability) for the research task given. Judge the reports against each other when there are two. ' +
  'Answer with one JSON object only, keyed by report name: {"target": {"comprehensiveness": 7, "insight": 6, "instruction_following": 8, "readability": 7}}';

export const FACT_PROMPT =
  `${JUDGE_FACT_MARK}. Decide whether the web page in <page> supports the statement in <statement>: supported means the page states it ` +
  'or something that plainly implies it; a statement the page does not contain, or contradicts, is not supported. ' +
  'Answer with one JSON object only: {"supported": true, "reason": "one sentence"}';
