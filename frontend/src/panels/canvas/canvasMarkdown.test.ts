import test from 'ava';
import { parseCanvas, serializeCanvas, snippetAt, snippetIn } from './canvasMarkdown.ts';

const report = [
  '# 固态电池研究报告',
  '',
  '> 【离线模式】未配置语言模型。',
  '',
  '## 研究问题',
  '',
  '- 关于「固态电池」：技术原理与进展',
  '- 希望关注的时间范围是：最近一年',
  '',
  '## 现状',
  '',
  '固态电池用固态电解质取代了液态电解液，**安全性**更好。[1][2]',
  '',
  '## 参考来源',
  '',
  '1. [固态电池的产业化进展](https://example.com/article)',
  '2. [研究笔记](https://example.com/notes.md)',
].join('\n');

test('a report survives the editor unchanged: citations, bullets, links', (t) => {
  t.is(serializeCanvas(parseCanvas(report)), report);
});

test('citation links written as [[1]](url) keep their form', (t) => {
  const linked = '更高的能量密度。[[1]](https://example.com/article)';
  t.is(serializeCanvas(parseCanvas(linked)), linked);
});

test('a selection is sent as the markdown holds it', (t) => {
  const doc = parseCanvas(report);
  const find = (text: string) => {
    let at = -1;
    doc.descendants((node, pos) => {
      if (at === -1 && node.isText && node.text!.includes(text)) at = pos + node.text!.indexOf(text);
    });
    return at;
  };
  const from = find('固态电池用');
  t.is(snippetIn(report, doc, from, from + 8), '固态电池用固态电');
  const bold = find('更好');
  t.is(snippetIn(report, doc, from, bold + 2), '固态电池用固态电解质取代了液态电解液，**安全性**更好');
});

test('a selection of text that occurs twice is located at the occurrence selected', (t) => {
  const report = '# 报告\n\n固态电池更安全。\n\n- **要点**：固态电池更安全。\n';
  const doc = parseCanvas(report);
  const positions: number[] = [];
  doc.descendants((node, pos) => {
    if (node.isText && node.text!.includes('固态电池更安全')) positions.push(pos + node.text!.indexOf('固态电池更安全'));
  });
  t.is(positions.length, 2);
  const first = snippetAt(report, doc, positions[0]!, positions[0]! + 7);
  const second = snippetAt(report, doc, positions[1]!, positions[1]! + 7);
  t.is(first.snippet, '固态电池更安全');
  t.is(first.offset, report.indexOf('固态电池更安全'));
  t.is(second.offset, report.lastIndexOf('固态电池更安全'));
});
