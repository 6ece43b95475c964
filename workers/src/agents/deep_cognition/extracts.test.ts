import test from 'ava';
import { assignExtracts, extractText } from './extracts.ts';

test("the offline engine quotes a source's findings, never its heading or a note's title", (t) => {
  const sources = [
    { n: 1, title: '固态电池的产业化进展', url: 'https://a.test/article', text: '固态电池的产业化进展\n固态电池用固态电解质取代了液态电解液，因此在安全性上有明显优势。' },
    { n: 2, title: '固态电池笔记', url: 'https://a.test/notes.md', text: '关于固态电池 技术原理与进展的笔记' },
  ];
  const [picks] = assignExtracts(sources, '固态电池', [{ focus: '固态电池的技术原理与进展' }], new Set());
  t.deepEqual(picks, [{ sentence: '固态电池用固态电解质取代了液态电解液，因此在安全性上有明显优势。', n: 1 }]);
  t.is(extractText(picks!, 'zh'), '- 固态电池用固态电解质取代了液态电解液，因此在安全性上有明显优势。[1]');
});
