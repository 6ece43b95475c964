import test from 'ava';
import { shareDecider } from '@scriptorium/domain/share/decide';
import { shareStream } from '@scriptorium/domain/share/share';
import { conversationStream } from '@scriptorium/domain/conversation/conversation';
import { client, signUp, startTestApp } from '../support/app.ts';

test('a link to one generated file opens that file only, never the report or the conversation', async (t) => {
  const app = await startTestApp();
  t.teardown(() => app.stop());
  const owner = await signUp(app.url, 'scopeowner');
  const sessionId = (await owner.request('POST', '/backend/conversation/sessions', { client_id: 'scope' })).body.session_id as string;
  // A report in the canvas, written as the research agent records it.
  const at = new Date().toISOString();
  const writing = { sessionId, messageId: 'r1', agent: 'deep_cognition', artifactId: 'dccanvas', version: 1, title: '私密报告', at };
  await app.services.events.appendToStream(conversationStream(sessionId), [
    { type: 'WritingStarted', data: writing, metadata: { at } },
    { type: 'WritingVersionSaved', data: { ...writing, content: '# 私密报告\n\n只给主人看。', interrupted: false }, metadata: { at } },
  ]);
  const shareId = 'artifactonly01';
  await app.services.commands.handle(shareDecider, shareStream(shareId), {
    type: 'ShareArtifact',
    data: { shareId, sessionId, ownerId: owner.userId, messageId: 'm1', filename: 'page.html', expiresDays: null },
    metadata: { now: new Date(), userId: owner.userId },
  });
  await app.settle();

  const anonymous = client(app.url);
  const pdf = await anonymous.request('GET', `/backend/conversation/share/${shareId}/pdf`);
  t.is(pdf.status, 404);
  t.like(pdf.body, { detail: '分享不存在或已过期' });
  t.is((await anonymous.request('GET', `/backend/conversation/share/${shareId}`)).status, 404);
});
