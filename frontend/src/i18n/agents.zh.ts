/** The agents namespace: agent monitoring (/remote) and creation (/remote/create). */
export const agentsZh = {
  monitor: {
    title: '智能体',
    subtitle: '你创建的智能体、它们能用的工具，以及每次工具试运行的结果。',
    create: '创建智能体',
    empty: '还没有智能体',
    emptyHint: '给智能体起个名字、写下工作说明、选好工具，就能在这里试运行它的工具。',
    tools: '工具',
    tests: '试运行 {{count}} 次',
    failed: '失败 {{count}} 次',
    lastTest: '最近一次：{{time}}',
    never: '还没有试运行',
    recent: '最近的试运行',
    noRuns: '还没有试运行记录',
    edit: '编辑',
    delete: '删除',
    deleteTitle: '删除智能体「{{name}}」？',
    deleteText: '删除后无法恢复。',
    ok: '成功',
    fail: '失败',
    ms: '{{count}} 毫秒',
  },
  form: {
    createTitle: '创建智能体',
    editTitle: '编辑智能体',
    name: '名称',
    namePlaceholder: '例如：财务助手',
    description: '简介（可选）',
    descriptionPlaceholder: '一句话说明它做什么',
    instructions: '工作说明',
    instructionsPlaceholder: '例如：回答财务问题时先列出计算过程，金额保留两位小数。',
    tools: '可用工具',
    save: '保存',
    create: '创建',
    saved: '已保存',
    back: '返回智能体列表',
  },
  tester: {
    title: '试运行工具',
    hint: '选一个工具、填好参数（JSON），看看它会返回什么。',
    tool: '工具',
    args: '参数',
    invalidArgs: '参数需要是一个 JSON 对象',
    run: '运行',
    result: '结果',
  },
  // The platform tools, worded by name (the server's own description stands for a tool not listed here).
  tools: {
    calculator: '计算算术表达式。支持 + - * / %（取余）^（乘方）、括号、小数，以及函数 sqrt、log（以 10 为底，或 log(x, 底数)）、ln、abs、round(x, 小数位数) 和常量 pi、e。',
    unit_convert: '换算长度、质量、时间和温度单位。长度：nm、μm、mm、cm、m、km、in、ft、yd、mi、nmi、寸、尺、丈、里；质量：mg、g、kg、t、oz、lb、两、斤；时间：ms、s、min、h、d、week；温度：°C、°F、K。也接受中英文名称，如 公里、斤、小时、摄氏度。',
    current_time: '查询当前日期和时间。可指定 IANA 时区（如 Asia/Shanghai、America/New_York、UTC），默认 Asia/Shanghai。',
    word_count: '统计文本字数：中文、日文、韩文每个字计一个字，英文和数字按词计；同时给出不含空白的字符数、含空白的字符数和段落数。',
    local_search: '检索当前用户自己的资料：笔记、上传的文件、认知库条目和以往研究用过的资料来源。只能查到该用户本人的内容。',
  },
} as const;

type Widen<T> = { -readonly [K in keyof T]: T[K] extends string ? string : Widen<T[K]> };
export type AgentsMessages = Widen<typeof agentsZh>;
