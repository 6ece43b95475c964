/** The writing-agent namespace: a report written straight from a brief, with the user's own material. */
export const writingZh = {
  title: '写作智能体',
  subtitle: '写下你要的文章，选好资料，智能体直接把报告写进画布；写完可以继续修改、导出和分享。',
  brief: {
    label: '写作需求',
    placeholder: '例如：面向公司管理层，写一篇关于钠离子电池在储能领域应用前景的简报，重点讲成本和安全性。',
    tooShort: '请至少写 {{min}} 个字，说明要写什么',
    tooLong: '写作需求最多 {{max}} 个字',
    count: '{{count}} / {{max}}',
  },
  preference: {
    title: '写作偏好',
    length: '篇幅',
    style: '风格',
    language: '语言',
    lengths: { short: '简短', medium: '适中', long: '详尽' },
    styles: { academic: '学术', professional: '专业', popular: '通俗' },
    languages: { zh: '中文', en: 'English' },
    instructions: '补充要求（可选）',
    instructionsPlaceholder: '例如：多用数据和表格，结尾给出三条建议',
  },
  material: {
    title: '参考资料',
    hint: '智能体会先读这些资料，并在报告中引用。',
    notes: '我的笔记',
    noNotes: '还没有笔记，可以在“笔记”里记录后再来选择。',
    files: '上传文件',
    filesHint: '支持 txt、md、pdf、docx、html',
    chooseFiles: '选择文件',
    remove: '移除',
    tooMany: '最多选择 {{max}} 份资料',
  },
  submit: '开始写作',
  steps: {
    session: '正在创建写作会话…',
    preference: '正在保存写作偏好…',
    notes: '正在添加笔记…',
    files: '正在上传文件…',
    start: '正在启动写作智能体…',
  },
  failed: '启动写作失败：{{message}}',
  offline: '未配置大模型：报告将由离线引擎从你的资料中摘录整理。',
} as const;

type Widen<T> = { -readonly [K in keyof T]: T[K] extends string ? string : Widen<T[K]> };
export type WritingMessages = Widen<typeof writingZh>;
