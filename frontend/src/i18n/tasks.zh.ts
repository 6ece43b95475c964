/** The task reward flow: the day's tasks in the user status dialog and their rewards. */
export const tasksZh = {
  title: '今日任务',
  completed: '已完成',
  total: '任务总数',
  coinsToday: '今日获得',
  reward: '+{{coins}}',
  progress: '进度 {{current}}/{{target}}',
  claim: '领取奖励',
  claiming: '领取中…',
  claimed: '已领取',
  claimedMessage: '奖励领取成功，获得 {{coins}} 认知币',
  claimFailed: '领取失败，请稍后重试',
  empty: '今日暂无任务',
  loadFailed: '任务加载失败',
  catalogue: {
    view_cognition: { name: '浏览认知', description_one: '今日浏览 {{count}} 条不同的认知', description_other: '今日浏览 {{count}} 条不同的认知' },
    create_note: { name: '记录笔记', description_one: '今日新建 {{count}} 篇笔记', description_other: '今日新建 {{count}} 篇笔记' },
    complete_research: { name: '完成研究', description_one: '今日完成 {{count}} 次深度研究', description_other: '今日完成 {{count}} 次深度研究' },
    ai_chat: { name: 'AI 对话', description_one: '今日与 AI 助手完成 {{count}} 次对话', description_other: '今日与 AI 助手完成 {{count}} 次对话' },
  },
};
