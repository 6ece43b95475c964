import test from 'ava';
import { at, deciderSpec } from '@scriptorium/infra/eventsourcing/testing';
import type { ConversationEvent } from './conversation.ts';
import type { CitationCheck } from '../protocol/research.ts';
import { conversationDecider } from './decide.ts';

const spec = deciderSpec(conversationDecider);
const T = '2026-03-01T08:00:00.000Z';
const meta = at(T);
const question = { id: 'q1', question_content: '关注哪个地区？', question_options: ['中国', '全球'], question_type: 'single' as const, section_id: 'scope' };

const started: ConversationEvent[] = [
  { type: 'SessionCreated', data: { sessionId: 's1', ownerId: 'u1', clientId: 'c', name: 'n', collaborationMode: 1, searchEnabled: true, layoutPreset: 'home-welcome', createdAt: T } },
  { type: 'UserMessagePosted', data: { sessionId: 's1', messageId: 'm1', content: '光伏', agent: 'deep_cognition', at: T } },
  { type: 'AgentReplyStarted', data: { sessionId: 's1', messageId: 'r1', agent: 'deep_cognition', replyTo: 'm1', jobId: 'r1', at: T } },
];
const asked: ConversationEvent = { type: 'ClarificationAsked', data: { sessionId: 's1', messageId: 'r1', questions: [question], at: T } };
const writing: ConversationEvent = { type: 'WritingStarted', data: { sessionId: 's1', messageId: 'r1', agent: 'deep_cognition', artifactId: 'dccanvas', version: 1, title: '报告', at: T } };
const report = '光伏产业在过去十年快速增长。中国的组件产量占全球八成以上。成本下降推动了装机。';
const saved: ConversationEvent = {
  type: 'WritingVersionSaved',
  data: { sessionId: 's1', messageId: 'r1', agent: 'deep_cognition', artifactId: 'dccanvas', version: 1, title: '报告', content: report.repeat(2), interrupted: false, at: T },
};

test('asking questions makes the reply wait with the status paused', (t) => {
  spec(started)
    .when({ type: 'AskClarification', data: { messageId: 'r1', questions: [question] }, metadata: meta })
    .then(t, [asked, { type: 'AgentStatusChanged', data: { sessionId: 's1', agent: 'deep_cognition', status: 'paused', at: T } }]);
});

test('answers go on to the research stage; unknown question ids are refused', (t) => {
  const answer = { id: 'q1', question: '关注哪个地区？', selectedOptions: ['中国'], textInput: '', question_type: 'single' as const };
  spec([...started, asked])
    .when({ type: 'AnswerClarification', data: { actorId: 'u1', answers: [answer], jobId: 'j2' }, metadata: meta })
    .then(t, [
      { type: 'ClarificationAnswered', data: { sessionId: 's1', messageId: 'r1', answers: [answer], at: T } },
      { type: 'StageStarted', data: { sessionId: 's1', messageId: 'r1', stage: 'research', jobId: 'j2', at: T } },
      { type: 'AgentStatusChanged', data: { sessionId: 's1', agent: 'deep_cognition', status: 'processing', at: T } },
    ]);
  spec([...started, asked]).when({ type: 'AnswerClarification', data: { actorId: 'u1', answers: [{ ...answer, id: 'q9' }], jobId: 'j2' }, metadata: meta }).thenThrows(t, 'invalid');
  spec(started).when({ type: 'AnswerClarification', data: { actorId: 'u1', answers: [answer], jobId: 'j2' }, metadata: meta }).thenThrows(t, 'conflict');
  spec([...started, asked]).when({ type: 'AnswerClarification', data: { actorId: 'u2', answers: [answer], jobId: 'j2' }, metadata: meta }).thenThrows(t, 'not_found');
});

test('a new message is refused while questions wait for answers', (t) => {
  spec([...started, asked]).when({ type: 'PostUserMessage', data: { actorId: 'u1', messageId: 'm2', replyId: 'r2', content: 'x' }, metadata: meta }).thenThrows(t, 'conflict', '请先回答澄清问题');
});

test('a finished version under 50 characters is discarded unless interrupted', (t) => {
  const short = '太短了';
  spec([...started, writing])
    .when({ type: 'FinishWriting', data: { messageId: 'r1', content: short, interrupted: false }, metadata: meta })
    .then(t, [{ type: 'WritingVersionDiscarded', data: { sessionId: 's1', messageId: 'r1', agent: 'deep_cognition', artifactId: 'dccanvas', version: 1, at: T } }]);
  spec([...started, writing])
    .when({ type: 'FinishWriting', data: { messageId: 'r1', content: short, interrupted: true }, metadata: meta })
    .then(t, [{ type: 'WritingVersionSaved', data: { sessionId: 's1', messageId: 'r1', agent: 'deep_cognition', artifactId: 'dccanvas', version: 1, title: '报告', content: short, interrupted: true, at: T } }]);
  spec([...started, writing])
    .when({ type: 'FinishWriting', data: { messageId: 'r1', content: report.repeat(2), interrupted: false }, metadata: meta })
    .then(t, [saved]);
});

test('versions number on from the last saved one', (t) => {
  spec([...started, writing, saved])
    .when({ type: 'StartWriting', data: { messageId: 'r1', title: '修订' }, metadata: meta })
    .then(t, [{ type: 'WritingStarted', data: { sessionId: 's1', messageId: 'r1', agent: 'deep_cognition', artifactId: 'dccanvas', version: 2, title: '修订', at: T } }]);
});

test('feedback: satisfied completes the reply, manual feedback needs text and starts a revision', (t) => {
  const requested: ConversationEvent = { type: 'FeedbackRequested', data: { sessionId: 's1', messageId: 'r1', artifactId: 'dccanvas', version: 1, at: T } };
  const given = [...started, writing, saved, requested];
  spec(given)
    .when({ type: 'GiveFeedback', data: { actorId: 'u1', option: 'satisfied', jobId: 'j3' }, metadata: meta })
    .then(t, [
      { type: 'FeedbackGiven', data: { sessionId: 's1', messageId: 'r1', option: 'satisfied', at: T } },
      { type: 'AgentReplyCompleted', data: { sessionId: 's1', messageId: 'r1', agent: 'deep_cognition', outcome: 'completed', at: T } },
      { type: 'AgentStatusChanged', data: { sessionId: 's1', agent: 'deep_cognition', status: 'paused', at: T } },
    ]);
  spec(given).when({ type: 'GiveFeedback', data: { actorId: 'u1', option: 'manual_feedback', text: ' ', jobId: 'j3' }, metadata: meta }).thenThrows(t, 'invalid');
  spec(given)
    .when({ type: 'GiveFeedback', data: { actorId: 'u1', option: 'manual_feedback', text: '加上成本数据', jobId: 'j3' }, metadata: meta })
    .then(t, [
      { type: 'FeedbackGiven', data: { sessionId: 's1', messageId: 'r1', option: 'manual_feedback', text: '加上成本数据', at: T } },
      { type: 'StageStarted', data: { sessionId: 's1', messageId: 'r1', stage: 'revise', jobId: 'j3', at: T } },
      { type: 'AgentStatusChanged', data: { sessionId: 's1', agent: 'deep_cognition', status: 'processing', at: T } },
    ]);
});

test('reply items are recorded while the reply runs; after it ended only spent tokens are', (t) => {
  const chunk: ConversationEvent = { type: 'MessageChunksAppended', data: { sessionId: 's1', messageId: 'r1', agent: 'deep_cognition', contentType: 'content', seq: 3, text: '正文' } };
  const tokens: ConversationEvent = { type: 'TokensConsumed', data: { userId: 'u1', sessionId: 's1', messageId: 'r1', prompt: 10, completion: 5, model: 'm', at: T } };
  const ended: ConversationEvent = { type: 'AgentReplyCompleted', data: { sessionId: 's1', messageId: 'r1', agent: 'deep_cognition', outcome: 'interrupted', at: T } };
  spec(started).when({ type: 'RecordReplyItem', data: { item: chunk }, metadata: meta }).then(t, [chunk]);
  spec([...started, ended]).when({ type: 'RecordReplyItem', data: { item: chunk }, metadata: meta }).then(t, []);
  spec([...started, ended]).when({ type: 'RecordReplyItem', data: { item: tokens }, metadata: meta }).then(t, [tokens]);
});

test('a message while a revision works is an instruction to it; one while a targeted edit works is what it would be without the edit (the edit has its own instruction)', (t) => {
  const requested: ConversationEvent = { type: 'FeedbackRequested', data: { sessionId: 's1', messageId: 'r1', artifactId: 'dccanvas', version: 1, at: T } };
  const revising: ConversationEvent[] = [
    { type: 'FeedbackGiven', data: { sessionId: 's1', messageId: 'r1', option: 'continue', at: T } },
    { type: 'StageStarted', data: { sessionId: 's1', messageId: 'r1', stage: 'revise', jobId: 'j3', at: T } },
    { type: 'AgentStatusChanged', data: { sessionId: 's1', agent: 'deep_cognition', status: 'processing', at: T } },
  ];
  const message = { type: 'PostUserMessage' as const, data: { actorId: 'u1', messageId: 'm2', replyId: 'r2', content: '再加一段政策分析' }, metadata: meta };
  spec([...started, writing, saved, requested, ...revising])
    .when(message)
    .then(t, [{ type: 'UserMessagePosted', data: { sessionId: 's1', messageId: 'm2', content: '再加一段政策分析', agent: 'deep_cognition', steers: 'r1', at: T } }]);
  const editing: ConversationEvent = { type: 'TargetedEditRequested', data: { sessionId: 's1', requestId: 'e1', userId: 'u1', instruction: '更精确', snippet: '中国的组件产量占全球八成以上。', fromVersion: 1, at: T } };
  spec([...started, writing, saved, requested, editing])
    .when(message)
    .then(t, [
      { type: 'AgentReplyCompleted', data: { sessionId: 's1', messageId: 'r1', agent: 'deep_cognition', outcome: 'completed', at: T } },
      { type: 'UserMessagePosted', data: { sessionId: 's1', messageId: 'm2', content: '再加一段政策分析', agent: 'deep_cognition', at: T } },
      { type: 'AgentReplyStarted', data: { sessionId: 's1', messageId: 'r2', agent: 'deep_cognition', replyTo: 'm2', jobId: 'r2', at: T } },
      { type: 'AgentStatusChanged', data: { sessionId: 's1', agent: 'deep_cognition', status: 'processing', at: T } },
    ]);
});

test('a targeted edit is recorded as requested once, on the current version, before any job runs', (t) => {
  const snippet = '中国的组件产量占全球八成以上。';
  const request = { actorId: 'u1', requestId: 'e1', instruction: ' 更精确 ', snippet };
  const requested: ConversationEvent = { type: 'TargetedEditRequested', data: { sessionId: 's1', requestId: 'e1', userId: 'u1', instruction: '更精确', snippet, fromVersion: 1, at: T } };
  spec([...started, writing, saved]).when({ type: 'RequestTargetedEdit', data: request, metadata: meta }).then(t, [requested]);
  spec([...started, writing, saved, requested]).when({ type: 'RequestTargetedEdit', data: request, metadata: meta }).then(t, []);
  spec([...started, writing, saved]).when({ type: 'RequestTargetedEdit', data: { ...request, requestId: 'e2', snippet: '不存在的句子' }, metadata: meta }).thenThrows(t, 'invalid', '选中的文本不在当前版本中');
  spec([...started]).when({ type: 'RequestTargetedEdit', data: request, metadata: meta }).thenThrows(t, 'conflict', '画布中还没有报告');
  spec([...started, writing, saved]).when({ type: 'RequestTargetedEdit', data: { ...request, actorId: 'u2' }, metadata: meta }).thenThrows(t, 'not_found', '会话不存在');
});

test('a targeted edit replaces only the snippet, as a new version', (t) => {
  const snippet = '中国的组件产量占全球八成以上。';
  spec([...started, writing, saved])
    .when({ type: 'ApplyTargetedEdit', data: { actorId: 'u1', requestId: 'e1', instruction: '更精确', snippet, editedSnippet: '中国组件产量约占全球 80%。', fromVersion: 1 }, metadata: meta })
    .then(t, [
      {
        type: 'TargetedEditApplied',
        data: {
          sessionId: 's1',
          requestId: 'e1',
          artifactId: 'dccanvas',
          fromVersion: 1,
          version: 2,
          title: '报告',
          instruction: '更精确',
          originalSnippet: snippet,
          editedSnippet: '中国组件产量约占全球 80%。',
          fullContent: report.replace(snippet, '中国组件产量约占全球 80%。') + report,
          at: T,
        },
      },
    ]);
  spec([...started, writing, saved])
    .when({ type: 'ApplyTargetedEdit', data: { actorId: 'u1', requestId: 'e1', instruction: 'x', snippet: '不存在的句子', editedSnippet: 'y', fromVersion: 1 }, metadata: meta })
    .thenThrows(t, 'invalid', '选中的文本不在当前版本中');
  spec([...started])
    .when({ type: 'ApplyTargetedEdit', data: { actorId: 'u1', requestId: 'e1', instruction: 'x', snippet: 'a', editedSnippet: 'y', fromVersion: 1 }, metadata: meta })
    .thenThrows(t, 'conflict');
});

test("a targeted edit's citation checks go with its version; none past its content", (t) => {
  const snippet = '中国的组件产量占全球八成以上。';
  const edited = '中国组件产量约占全球 80%。';
  const fullContent = report.replace(snippet, edited) + report;
  const kept = { ...check, offset: 0 };
  spec([...started, writing, saved])
    .when({ type: 'ApplyTargetedEdit', data: { actorId: 'u1', requestId: 'e1', instruction: '更精确', snippet, editedSnippet: edited, fromVersion: 1, citations: [kept, { ...check, offset: fullContent.length }] }, metadata: meta })
    .then(t, [
      {
        type: 'TargetedEditApplied',
        data: { sessionId: 's1', requestId: 'e1', artifactId: 'dccanvas', fromVersion: 1, version: 2, title: '报告', instruction: '更精确', originalSnippet: snippet, editedSnippet: edited, fullContent, citations: [kept], at: T },
      },
    ]);
});

test('a hand edit of the canvas is saved as the next version, on the latest version only', (t) => {
  spec([...started, writing, saved])
    .when({ type: 'EditCanvas', data: { actorId: 'u1', content: '改写后的报告', fromVersion: 1 }, metadata: meta })
    .then(t, [{ type: 'CanvasEdited', data: { sessionId: 's1', artifactId: 'dccanvas', fromVersion: 1, version: 2, title: '报告', content: '改写后的报告', at: T } }]);
  spec([...started, writing, saved]).when({ type: 'EditCanvas', data: { actorId: 'u1', content: 'x', fromVersion: 0 }, metadata: meta }).thenThrows(t, 'conflict');
  spec([...started, writing, saved]).when({ type: 'EditCanvas', data: { actorId: 'u1', content: report.repeat(2), fromVersion: 1 }, metadata: meta }).then(t, []);
  spec([...started, writing, saved]).when({ type: 'EditCanvas', data: { actorId: 'u2', content: 'x', fromVersion: 1 }, metadata: meta }).thenThrows(t, 'not_found');
});

test('a report version can be rated by its owner; an unknown version is refused', (t) => {
  spec([...started, writing, saved])
    .when({ type: 'RateReport', data: { actorId: 'u1', version: 1, rating: 'helpful', comment: ' 很好 ' }, metadata: meta })
    .then(t, [{ type: 'ReportRated', data: { sessionId: 's1', userId: 'u1', version: 1, rating: 'helpful', comment: '很好', at: T } }]);
  spec([...started, writing, saved]).when({ type: 'RateReport', data: { actorId: 'u1', version: 2, rating: 'helpful' }, metadata: meta }).thenThrows(t, 'invalid');
  spec([...started, writing, saved]).when({ type: 'RateReport', data: { actorId: 'u2', version: 1, rating: 'helpful' }, metadata: meta }).thenThrows(t, 'not_found');
});

test('a section is recorded only into the version its reply is writing; a page read is recorded while the reply runs', (t) => {
  const section = { messageId: 'r1', index: 0, heading: '背景', text: '光伏产业快速增长[[1]](https://a.test)。' };
  spec([...started, writing])
    .when({ type: 'RecordSection', data: section, metadata: meta })
    .then(t, [{ type: 'SectionWritten', data: { sessionId: 's1', ...section, at: T } }]);
  spec(started).when({ type: 'RecordSection', data: section, metadata: meta }).thenThrows(t, 'conflict');
  const page = { messageId: 'r1', url: 'https://a.test', title: 'A', text: '全文'.repeat(3000), summary: '摘要' };
  spec(started).when({ type: 'RecordPage', data: page, metadata: meta }).then(t, [{ type: 'PageRead', data: { sessionId: 's1', ...page, at: T } }]);
  spec([...started, writing, saved]).when({ type: 'RecordPage', data: { ...page, messageId: 'r9' }, metadata: meta }).thenThrows(t, 'conflict');
});

const check: CitationCheck = { n: 1, offset: 12, verdict: 'unsupported', action: 'marked', excerpt: '中国的组件产量占全球八成以上。', missing: ['2031'] };
const checked = (index: number, citations: CitationCheck[] = [check]): ConversationEvent => ({ type: 'CitationsChecked', data: { sessionId: 's1', messageId: 'r1', version: 1, index, citations, at: T } });

test("a section's citation checks are recorded for the version being written, and refused with no writing open", (t) => {
  spec([...started, writing]).when({ type: 'RecordCitationChecks', data: { messageId: 'r1', index: 0, citations: [check] }, metadata: meta }).then(t, [checked(0)]);
  spec(started).when({ type: 'RecordCitationChecks', data: { messageId: 'r1', index: 0, citations: [check] }, metadata: meta }).thenThrows(t, 'conflict');
  spec([...started, writing]).when({ type: 'RecordCitationChecks', data: { messageId: 'r1', index: -1, citations: [] }, metadata: meta }).thenThrows(t, 'invalid');
});

test('the saved version keeps every section’s checks in section order, a section checked again counting once', (t) => {
  const later: CitationCheck = { ...check, n: 2, offset: 40, verdict: 'supported', action: 'kept' };
  const redone: CitationCheck = { ...check, verdict: 'dangling', action: 'removed' };
  spec([...started, writing, checked(1, [later]), checked(0), checked(0, [redone])])
    .when({ type: 'FinishWriting', data: { messageId: 'r1', content: report.repeat(2), interrupted: false }, metadata: meta })
    .then(t, [{ ...saved, data: { ...saved.data, citations: [redone, later] } } as ConversationEvent]);
});

test("a plan keeps the model's section headings and report title, one heading per step", (t) => {
  const steps = ['梳理钠离子电池的现状与关键数据', '分析成本与争议'];
  spec(started)
    .when({ type: 'ProposePlan', data: { messageId: 'r1', steps, headings: ['现状与数据', '成本之争'], title: '钠离子电池：走到哪一步了' }, metadata: meta })
    .then(t, [{ type: 'PlanProposed', data: { sessionId: 's1', messageId: 'r1', steps, headings: ['现状与数据', '成本之争'], title: '钠离子电池：走到哪一步了', at: T } }]);
  spec(started).when({ type: 'ProposePlan', data: { messageId: 'r1', steps, headings: ['现状与数据'] }, metadata: meta }).thenThrows(t, 'invalid');
});

const proposed: ConversationEvent = {
  type: 'PlanProposed',
  data: { sessionId: 's1', messageId: 'r1', steps: ['梳理技术路线', '调研产业化'], queries: [['光伏 技术路线'], ['光伏 产业化']], headings: ['技术路线', '产业化'], at: T },
};
const reviewOpened = (startsAt?: string): ConversationEvent => ({ type: 'PlanReviewOpened', data: { sessionId: 's1', messageId: 'r1', jobId: 'r1:plan', queries: [['光伏 技术路线'], ['光伏 产业化']], ...(startsAt && { startsAt }), at: T } });
const COUNTDOWN_END = '2026-03-01T08:00:08.000Z';

test('a proposed plan waits for review: on a countdown, or until started', (t) => {
  spec([...started, proposed])
    .when({ type: 'OpenPlanReview', data: { messageId: 'r1', jobId: 'r1:plan', startsAt: COUNTDOWN_END }, metadata: meta })
    .then(t, [reviewOpened(COUNTDOWN_END), { type: 'AgentStatusChanged', data: { sessionId: 's1', agent: 'deep_cognition', status: 'paused', at: T } }]);
  spec(started).when({ type: 'OpenPlanReview', data: { messageId: 'r1', jobId: 'r1:plan' }, metadata: meta }).thenThrows(t, 'conflict', '当前没有等待确认的研究计划');
});

test('an edit replaces the plan: a kept step keeps its searches and heading wherever it moved, a new one searches its words or the searches given; the countdown stops', (t) => {
  spec([...started, proposed, reviewOpened(COUNTDOWN_END)])
    .when({ type: 'EditPlan', data: { actorId: 'u1', steps: [{ description: ' 调研产业化 ' }, { description: '比较成本' }, { description: '看政策', queries: ['光伏 补贴', ' '] }] }, metadata: meta })
    .then(t, [
      {
        type: 'PlanEdited',
        data: { sessionId: 's1', messageId: 'r1', steps: ['调研产业化', '比较成本', '看政策'], queries: [['光伏 产业化'], ['比较成本'], ['光伏 补贴']], headings: ['产业化', '比较成本', '看政策'], at: T },
      },
    ]);
  // Sending the same plan again only stops the countdown; once stopped, it records nothing.
  const same = { type: 'EditPlan' as const, data: { actorId: 'u1', steps: [{ description: '梳理技术路线' }, { description: '调研产业化' }] }, metadata: meta };
  spec([...started, proposed, reviewOpened(COUNTDOWN_END)]).when(same).then(t, [{ type: 'PlanEdited', data: { sessionId: 's1', messageId: 'r1', steps: proposed.data.steps, queries: [['光伏 技术路线'], ['光伏 产业化']], headings: ['技术路线', '产业化'], at: T } }]);
  spec([...started, proposed, reviewOpened()]).when(same).then(t, []);
});

test('editing refuses an empty plan, a blank step, a plan that runs and a session without one', (t) => {
  const edit = (steps: Array<{ description: string }>, actorId = 'u1') => ({ type: 'EditPlan' as const, data: { actorId, steps }, metadata: meta });
  spec([...started, proposed, reviewOpened()]).when(edit([])).thenThrows(t, 'invalid', '研究计划不能为空');
  spec([...started, proposed, reviewOpened()]).when(edit([{ description: 'a' }, { description: '  ' }])).thenThrows(t, 'invalid', '第 2 步没有内容');
  spec([...started, proposed]).when(edit([{ description: 'a' }])).thenThrows(t, 'conflict', '研究计划已经开始执行，不能再修改');
  spec(started).when(edit([{ description: 'a' }])).thenThrows(t, 'conflict', '当前没有等待确认的研究计划');
  spec([...started, proposed, reviewOpened()]).when(edit([{ description: 'a' }], 'u2')).thenThrows(t, 'not_found');
});

test('an instruction that changes the scope revises the running plan: finished steps kept with their place before, new ones in; a plan with misplaced or missing parts is refused', (t) => {
  const revise = (from: Array<number | null>, steps = ['梳理技术路线', '看低温性能']) => ({
    type: 'RevisePlan' as const,
    data: { messageId: 'r1', steps, queries: steps.map((step) => [step]), headings: steps, from, instructions: ['m2'] },
    metadata: meta,
  });
  spec([...started, proposed])
    .when(revise([0, null]))
    .then(t, [{ type: 'PlanRevised', data: { sessionId: 's1', messageId: 'r1', steps: ['梳理技术路线', '看低温性能'], queries: [['梳理技术路线'], ['看低温性能']], headings: ['梳理技术路线', '看低温性能'], from: [0, null], instructions: ['m2'], at: T } }]);
  spec([...started, proposed]).when(revise([2, null])).thenThrows(t, 'invalid');
  spec([...started, proposed]).when(revise([0])).thenThrows(t, 'invalid');
  spec([...started, proposed]).when(revise([], [])).thenThrows(t, 'invalid');
  spec(started).when(revise([null, null])).thenThrows(t, 'conflict');
});

test('a new message is refused while the plan waits for review', (t) => {
  spec([...started, proposed, reviewOpened()]).when({ type: 'PostUserMessage', data: { actorId: 'u1', messageId: 'm2', replyId: 'r2', content: 'x' }, metadata: meta }).thenThrows(t, 'conflict', '研究计划正在等待确认：请先开始或暂停它');
});

test('the user starts the waiting plan as a new job; starting twice is refused', (t) => {
  const startedPlan: ConversationEvent = { type: 'PlanStarted', data: { sessionId: 's1', messageId: 'r1', jobId: 'j3', by: 'user', at: T } };
  spec([...started, proposed, reviewOpened()])
    .when({ type: 'StartPlan', data: { actorId: 'u1', jobId: 'j3' }, metadata: meta })
    .then(t, [startedPlan, { type: 'AgentStatusChanged', data: { sessionId: 's1', agent: 'deep_cognition', status: 'processing', at: T } }]);
  spec([...started, proposed, reviewOpened(), startedPlan]).when({ type: 'StartPlan', data: { actorId: 'u1', jobId: 'j4' }, metadata: meta }).thenThrows(t, 'conflict', '研究计划已经开始执行，不能再修改');
});

test('the countdown starts the plan in its own job, unless an edit stopped it', (t) => {
  const onTime = { type: 'StartPlanOnTime' as const, data: { messageId: 'r1', jobId: 'r1:plan' }, metadata: meta };
  spec([...started, proposed, reviewOpened(COUNTDOWN_END)])
    .when(onTime)
    .then(t, [
      { type: 'PlanStarted', data: { sessionId: 's1', messageId: 'r1', jobId: 'r1:plan', by: 'countdown', at: T } },
      { type: 'AgentStatusChanged', data: { sessionId: 's1', agent: 'deep_cognition', status: 'processing', at: T } },
    ]);
  const edited: ConversationEvent = { type: 'PlanEdited', data: { sessionId: 's1', messageId: 'r1', steps: ['x'], queries: [['x']], headings: ['x'], at: T } };
  spec([...started, proposed, reviewOpened(COUNTDOWN_END), edited]).when(onTime).thenThrows(t, 'conflict');
  spec([...started, proposed, reviewOpened()]).when(onTime).thenThrows(t, 'conflict');
});
