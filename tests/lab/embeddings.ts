/**
 * The scripted model's embeddings (`POST /v1/embeddings`): a text's terms hashed into a vector, plus
 * one dimension per concept it names in any of the words below, so texts that say the same thing in
 * other words (cold / 零下, cost / 便宜) point the same way, as a real embedding model's do. Enough
 * meaning to test retrieval over the real protocol; no claim to be a language model.
 */
import { termsOf } from './text.ts';

const CONCEPTS: readonly (readonly string[])[] = [
  ['cold', 'freezing', 'winter', 'minus', 'sub-zero', 'frost', '低温', '零下', '寒冷', '严寒', '冬季', '耐寒'],
  ['cost', 'price', 'cheap', 'expensive', 'afford', 'affordable', 'pay', 'payback', '成本', '价格', '便宜', '昂贵', '造价', '收益', '回本'],
  ['health', 'harm', 'toxic', 'risk', 'disease', '健康', '危害', '毒性', '风险', '疾病'],
  ['sales', 'shipments', 'installed', 'market', 'units', '出货', '销量', '装机', '市场', '规模'],
  ['policy', 'subsidy', 'regulation', 'grant', 'law', '政策', '补贴', '监管', '法规', '标准'],
  ['staff', 'workers', 'installers', 'shortage', 'carers', 'training', '人员', '人才', '护理员', '短缺', '培训'],
];
const HASHED = 256;
const CONCEPT_WEIGHT = 4;

function hash(term: string): number {
  let h = 2166136261;
  for (const char of term) h = Math.imul(h ^ char.codePointAt(0)!, 16777619);
  return (h >>> 0) % HASHED;
}

/** A unit vector for `text`. */
export function embeddingOf(text: string): number[] {
  const vector = new Array<number>(CONCEPTS.length + HASHED).fill(0);
  const lower = text.toLowerCase();
  CONCEPTS.forEach((words, concept) => {
    if (words.some((word) => lower.includes(word))) vector[concept] = CONCEPT_WEIGHT;
  });
  for (const term of termsOf(text)) vector[CONCEPTS.length + hash(term)]! += 1;
  const norm = Math.sqrt(vector.reduce((sum, value) => sum + value * value, 0)) || 1;
  return vector.map((value) => value / norm);
}
