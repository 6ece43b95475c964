/**
 * Targeted edits the offline engine can do faithfully: instructions with one obvious result.
 * Anything else it refuses, saying what it can do, rather than pretend to have rewritten the text.
 */

export type OfflineEdit = { ok: true; text: string } | { ok: false; reason: string };

const quoted = `[“"'「『‘]?(.+?)[”"'」』’]?`;
const replaceZh = new RegExp(`^(?:请)?(?:把|将)\\s*${quoted}\\s*(?:改为|改成|换成|替换为|替换成|修改为)\\s*${quoted}\\s*[。.!！]?$`, 'u');
const replaceEn = new RegExp(`^(?:please\\s+)?(?:replace|change)\\s+${quoted}\\s+(?:with|to|by)\\s+${quoted}\\s*\\.?$`, 'iu');
const deleteAllZh = /^(?:请)?(?:删除|删掉|去掉|移除)(?:这句话?|这段话?|这一?段|这部分|选中的?(?:文字|内容|文本|部分)?)?[。.!！]?$/u;
const deleteAllEn = /^(?:please\s+)?(?:delete|remove)(?:\s+(?:this|it|the\s+(?:sentence|paragraph|selection|text)))?\s*\.?$/iu;
const deletePartZh = new RegExp(`^(?:请)?(?:删除|删掉|去掉|移除)\\s*[“"'「『‘](.+?)[”"'」』’]\\s*[。.!！]?$`, 'u');
const deletePartEn = /^(?:please\s+)?(?:delete|remove)\s+["'“‘](.+?)["'”’]\s*\.?$/iu;
const removeCitations = /^(?:请)?(?:删除|去掉|移除)(?:所有的?)?(?:引用|引注|引用标记|引文标记)|^(?:please\s+)?remove\s+(?:the\s+)?citations?/iu;
const bold = /加粗|粗体|\bbold\b/iu;
const italic = /斜体|\bitali[cs]/iu;
const upper = /全部?大写|转为大写|\buppercase\b|\bupper case\b/iu;
const lower = /全部?小写|转为小写|\blowercase\b|\blower case\b/iu;

/** Keeps the selection's surrounding blanks, so an edit does not glue it to its neighbours. */
function around(snippet: string, edit: (core: string) => string): string {
  const match = /^(\s*)([\s\S]*?)(\s*)$/.exec(snippet)!;
  return `${match[1]}${edit(match[2]!)}${match[3]}`;
}

export function offlineEdit(instruction: string, snippet: string, language: 'zh' | 'en'): OfflineEdit {
  const text = instruction.trim();
  const zh = language === 'zh';
  const replace = replaceZh.exec(text) ?? replaceEn.exec(text);
  if (replace) {
    const [, from, to] = replace as unknown as [string, string, string];
    if (!snippet.includes(from)) return { ok: false, reason: zh ? `选中的文本里没有“${from}”` : `The selection does not contain "${from}"` };
    return { ok: true, text: snippet.split(from).join(to) };
  }
  if (deleteAllZh.test(text) || deleteAllEn.test(text)) return { ok: true, text: '' };
  const part = deletePartZh.exec(text) ?? deletePartEn.exec(text);
  if (part) {
    const target = part[1]!;
    if (!snippet.includes(target)) return { ok: false, reason: zh ? `选中的文本里没有“${target}”` : `The selection does not contain "${target}"` };
    return { ok: true, text: snippet.split(target).join('') };
  }
  if (removeCitations.test(text)) return { ok: true, text: snippet.replace(/\[\[\d+\]\]\([^)]*\)|\[\d+\]/g, '') };
  if (bold.test(text)) return { ok: true, text: around(snippet, (core) => `**${core}**`) };
  if (italic.test(text)) return { ok: true, text: around(snippet, (core) => `*${core}*`) };
  if (upper.test(text)) return { ok: true, text: snippet.toUpperCase() };
  if (lower.test(text)) return { ok: true, text: snippet.toLowerCase() };
  return {
    ok: false,
    reason: zh
      ? '离线模式下无法按这条指令改写文本。离线引擎支持：把“原文”改为“新文”、删除选中内容、删除“某段文字”、去掉引用、加粗、斜体、大小写转换；配置语言模型后可以按任意指令修改。'
      : 'Offline, this instruction cannot be carried out. The offline engine can: replace "old" with "new", delete the selection, delete "some text", remove citations, bold, italic, change case; configure a language model for any instruction.',
  };
}

/** A model's edited snippet as text: no fences or quotes around it, the selection's blanks kept. */
export function cleanEdited(answer: string, snippet: string): string {
  let text = answer.trim();
  const fenced = /^```[\w-]*\n([\s\S]*?)\n?```$/.exec(text);
  if (fenced) text = fenced[1]!.trim();
  const pairs: Array<[string, string]> = [['“', '”'], ['"', '"'], ['「', '」'], ["'", "'"]];
  for (const [open, close] of pairs) {
    if (text.length > 1 && text.startsWith(open) && text.endsWith(close) && !snippet.trim().startsWith(open)) text = text.slice(open.length, -close.length).trim();
  }
  return around(snippet, () => text);
}
