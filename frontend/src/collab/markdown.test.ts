import test from 'ava';
import { collabSchema } from '@scriptorium/domain/protocol/collabSchema';
import { docToReport, reportToDoc } from './markdown.ts';

test('a report reads into the shared schema and writes back as the same Markdown', (t) => {
  const markdown = '# 钠离子电池\n\n成本比锂电池低三成 [1]，**循环寿命**仍是短板。\n\n- 储能电站\n- 两轮车\n\n1. 正极\n2. 负极\n\n> 引自 [报告](https://example.org "来源")\n\n```js\nconst x = 1;\n```\n\n![图](https://example.org/a.png)';
  const doc = reportToDoc(markdown);
  t.is(doc.type.schema, collabSchema, 'the schema the server checks steps with');
  t.notThrows(() => doc.check());
  t.is(docToReport(doc), markdown);
});
