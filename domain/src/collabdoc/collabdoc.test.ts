import test from 'ava';
import { Transform } from 'prosemirror-transform';
import { at, deciderSpec } from '@scriptorium/infra/eventsourcing/testing';
import { COLLAB_SNAPSHOT_EVERY } from '../protocol/collab.ts';
import { collabSchema, emptyCollabDoc } from '../protocol/collabSchema.ts';
import { applySteps, evolve, initialState, type CollabDocEvent } from './collabdoc.ts';
import { collabDecider, type CollabDocCommand } from './decide.ts';
import { rebuild } from './service.ts';

const spec = deciderSpec(collabDecider);
const T1 = '2026-11-24T09:00:00.000Z';
const D = 'd'.repeat(32);
const when = <C extends CollabDocCommand>(type: C['type'], data: Omit<C['data'], 'docId'>) => ({ type, data: { docId: D, ...data }, metadata: at(T1) }) as CollabDocCommand;
const created: CollabDocEvent = { type: 'CollabDocCreated', data: { docId: D, ownerId: 'owner', title: '周报', at: T1 } };
const invited = (role: 'edit' | 'read', tokenHash = `hash-${role}`): CollabDocEvent => ({ type: 'CollabInviteCreated', data: { docId: D, inviteId: `i-${role}`, tokenHash, role, createdBy: 'owner', at: T1 } });
const joined = (userId: string, role: 'edit' | 'read'): CollabDocEvent => ({ type: 'CollabMemberJoined', data: { docId: D, userId, role, inviteId: `i-${role}`, at: T1 } });
/** Steps typing `text` at `pos` of the document the given steps lead to. */
const typing = (before: unknown[], text: string, pos = 1): unknown[] =>
  new Transform(applySteps(emptyCollabDoc(), before)).insert(pos, collabSchema.text(text)).steps.map((step) => step.toJSON());
const accepted = (userId: string, version: number, steps: unknown[], clientId = 'c1'): CollabDocEvent => ({ type: 'CollabStepsAccepted', data: { docId: D, userId, clientId, version, steps, at: T1 } });

test('a document is created with a trimmed title; again is nothing; another user cannot claim its id', (t) => {
  spec([]).when(when('CreateCollabDoc', { ownerId: 'owner', title: ' 周报 ' })).then(t, [created]);
  spec([created]).when(when('CreateCollabDoc', { ownerId: 'owner', title: '周报' })).then(t, []);
  spec([created]).when(when('CreateCollabDoc', { ownerId: 'other', title: 'x' })).thenThrows(t, 'not_found');
  spec([]).when(when('CreateCollabDoc', { ownerId: 'owner', title: '  ' })).thenThrows(t, 'invalid', '请填写文档标题');
});

test('a batch on the current version is accepted as the schema reads it', (t) => {
  const steps = typing([], '你好');
  spec([created]).when(when('SubmitCollabSteps', { userId: 'owner', clientId: 'c1', version: 0, steps })).then(t, [accepted('owner', 0, steps)]);
  const more = typing(steps, '!', 3);
  spec([created, accepted('owner', 0, steps)]).when(when('SubmitCollabSteps', { userId: 'owner', clientId: 'c2', version: 1, steps: more })).then(t, [accepted('owner', 1, more, 'c2')]);
});

test('a batch on an older version is refused with the current one, so the client rebases; a future version is refused too', (t) => {
  const first = typing([], 'a');
  spec([created, accepted('owner', 0, first)])
    .when(when('SubmitCollabSteps', { userId: 'owner', clientId: 'c2', version: 0, steps: typing([], 'b') }))
    .thenThrows(t, 'conflict', '文档已更新到版本 1，请先同步');
  spec([created]).when(when('SubmitCollabSteps', { userId: 'owner', clientId: 'c2', version: 4, steps: first })).thenThrows(t, 'invalid');
});

test('a step that does not parse or does not apply refuses the whole batch', (t) => {
  const good = typing([], 'a');
  spec([created]).when(when('SubmitCollabSteps', { userId: 'owner', clientId: 'c1', version: 0, steps: [...good, { stepType: 'teleport' }] })).thenThrows(t, 'invalid', '第 1 个步骤无法应用到当前文档');
  // Text straight into the document node breaks the schema (`block+`).
  const broken = { stepType: 'replace', from: 0, to: 0, slice: { content: [{ type: 'text', text: 'x' }] } };
  spec([created]).when(when('SubmitCollabSteps', { userId: 'owner', clientId: 'c1', version: 0, steps: [broken] })).thenThrows(t, 'invalid');
  spec([created]).when(when('SubmitCollabSteps', { userId: 'owner', clientId: 'c1', version: 0, steps: [{ stepType: 'replace', from: 50, to: 50, slice: { content: [{ type: 'text', text: 'x' }] } }] })).thenThrows(t, 'invalid');
  spec([created]).when(when('SubmitCollabSteps', { userId: 'owner', clientId: 'c1', version: 0, steps: [{ stepType: 'replace', from: 1, to: 1, slice: { content: [{ type: 'image' }] } }] })).thenThrows(t, 'invalid');
});

test('readers cannot submit, editors can, strangers see no document', (t) => {
  const steps = typing([], 'x');
  const given = [created, invited('read'), invited('edit'), joined('reader', 'read'), joined('editor', 'edit')];
  spec(given).when(when('SubmitCollabSteps', { userId: 'reader', clientId: 'c', version: 0, steps })).thenThrows(t, 'forbidden', '你只有查看权限，不能编辑此文档');
  spec(given).when(when('SubmitCollabSteps', { userId: 'editor', clientId: 'c', version: 0, steps })).then(t, [accepted('editor', 0, steps, 'c')]);
  spec(given).when(when('SubmitCollabSteps', { userId: 'stranger', clientId: 'c', version: 0, steps })).thenThrows(t, 'not_found');
});

test('the batch that crosses a multiple of the snapshot interval records the whole document', (t) => {
  let steps: unknown[] = [];
  for (let index = 0; index < COLLAB_SNAPSHOT_EVERY - 1; index++) steps = [...steps, ...typing(steps, 'a')];
  const before = [created, accepted('owner', 0, steps)];
  const last = typing(steps, 'bc');
  const doc = applySteps(emptyCollabDoc(), [...steps, ...last]);
  spec(before)
    .when(when('SubmitCollabSteps', { userId: 'owner', clientId: 'c1', version: steps.length, steps: last }))
    .then(t, [accepted('owner', steps.length, last), { type: 'CollabDocSnapshotted', data: { docId: D, version: COLLAB_SNAPSHOT_EVERY, doc: doc.toJSON(), at: T1 } }]);
});

test('only the owner invites; a link lets its holder join with its role, once; an edit link upgrades a reader', (t) => {
  spec([created]).when(when('CreateCollabInvite', { actorId: 'owner', inviteId: 'i-read', tokenHash: 'hash-read', role: 'read' })).then(t, [invited('read')]);
  spec([created, invited('edit'), joined('editor', 'edit')]).when(when('CreateCollabInvite', { actorId: 'editor', inviteId: 'x', tokenHash: 'h', role: 'edit' })).thenThrows(t, 'forbidden');
  spec([created]).when(when('CreateCollabInvite', { actorId: 'stranger', inviteId: 'x', tokenHash: 'h', role: 'edit' })).thenThrows(t, 'not_found');
  spec([created, invited('read')]).when(when('JoinCollabDoc', { userId: 'u2', tokenHash: 'hash-read' })).then(t, [joined('u2', 'read')]);
  spec([created, invited('read'), joined('u2', 'read')]).when(when('JoinCollabDoc', { userId: 'u2', tokenHash: 'hash-read' })).then(t, []);
  spec([created, invited('read'), invited('edit'), joined('u2', 'read')]).when(when('JoinCollabDoc', { userId: 'u2', tokenHash: 'hash-edit' })).then(t, [joined('u2', 'edit')]);
  spec([created, invited('read'), invited('edit'), joined('u2', 'edit')]).when(when('JoinCollabDoc', { userId: 'u2', tokenHash: 'hash-read' })).then(t, []);
  spec([created, invited('read')]).when(when('JoinCollabDoc', { userId: 'owner', tokenHash: 'hash-read' })).then(t, []);
  spec([created]).when(when('JoinCollabDoc', { userId: 'u2', tokenHash: 'forged' })).thenThrows(t, 'not_found', '邀请链接无效');
});

test('any version is rebuilt from the batches, cutting inside a batch where the version falls', (t) => {
  const a = typing([], 'ab');
  const b = typing(a, 'cd', 3);
  const batches = [{ version: 0, steps: a }, { version: 1, steps: b }];
  const state = [created, accepted('owner', 0, a), accepted('owner', 1, b)].reduce(evolve, initialState());
  t.is(state.status === 'open' && state.doc.textContent, 'abcd');
  t.is(rebuild({ version: 0, doc: emptyCollabDoc() }, batches).doc.textContent, 'abcd');
  t.is(rebuild({ version: 0, doc: emptyCollabDoc() }, batches, 1).doc.textContent, 'ab');
  t.deepEqual(rebuild({ version: 0, doc: emptyCollabDoc() }, batches, 0).version, 0);
  const fromSnapshot = rebuild({ version: 1, doc: applySteps(emptyCollabDoc(), a) }, batches);
  t.deepEqual([fromSnapshot.version, fromSnapshot.doc.textContent], [2, 'abcd']);
});

test("a report's canvas starts the document with its content, recorded as the snapshot at version 0; content outside the schema is refused", (t) => {
  const initial = collabSchema.node('doc', null, [collabSchema.node('heading', { level: 1 }, [collabSchema.text('钠电池')]), collabSchema.node('paragraph', null, [collabSchema.text('成本更低')])]).toJSON();
  const report = { sessionId: 's1', version: 2 };
  const events: CollabDocEvent[] = [
    { type: 'CollabDocCreated', data: { docId: D, ownerId: 'owner', title: '报告', report, at: T1 } },
    { type: 'CollabDocSnapshotted', data: { docId: D, version: 0, doc: initial, at: T1 } },
  ];
  spec([]).when(when('CreateCollabDoc', { ownerId: 'owner', title: '报告', report, initial })).then(t, events);
  const state = events.reduce(evolve, initialState());
  t.is(state.status === 'open' && state.doc.textContent, '钠电池成本更低');
  t.is(state.status === 'open' && state.version, 0);
  spec([]).when(when('CreateCollabDoc', { ownerId: 'owner', title: '报告', report, initial: { type: 'doc', content: [{ type: 'text', text: 'loose' }] } })).thenThrows(t, 'invalid', '文档内容不符合共享文档的格式');
  spec([]).when(when('CreateCollabDoc', { ownerId: 'owner', title: '报告', report, initial: { type: 'paragraph' } })).thenThrows(t, 'invalid');
});

const renamed = (title: string): CollabDocEvent => ({ type: 'CollabDocRenamed', data: { docId: D, title, by: 'owner', at: T1 } });
const revoked = (role: 'edit' | 'read'): CollabDocEvent => ({ type: 'CollabInviteRevoked', data: { docId: D, inviteId: `i-${role}`, by: 'owner', at: T1 } });
const removed = (userId: string): CollabDocEvent => ({ type: 'CollabMemberRemoved', data: { docId: D, userId, by: 'owner', at: T1 } });

test('the owner renames with the rules of creating; the same title again is nothing; members and strangers cannot', (t) => {
  const given = [created, invited('edit'), joined('editor', 'edit')];
  spec(given).when(when('RenameCollabDoc', { actorId: 'owner', title: '  月报 ' })).then(t, [renamed('月报')]);
  spec([...given, renamed('月报')]).when(when('RenameCollabDoc', { actorId: 'owner', title: '月报' })).then(t, []);
  spec(given).when(when('RenameCollabDoc', { actorId: 'owner', title: ' ' })).thenThrows(t, 'invalid', '请填写文档标题');
  spec(given).when(when('RenameCollabDoc', { actorId: 'owner', title: 'x'.repeat(201) })).thenThrows(t, 'invalid', '标题最多 200 个字符');
  spec(given).when(when('RenameCollabDoc', { actorId: 'editor', title: '抢' })).thenThrows(t, 'forbidden', '只有文档所有者可以管理文档');
  spec(given).when(when('RenameCollabDoc', { actorId: 'stranger', title: '抢' })).thenThrows(t, 'not_found');
  const state = [...given, renamed('月报')].reduce(evolve, initialState());
  t.is(state.status === 'open' && state.title, '月报');
});

test('a revoked link cannot be joined, with its own refusal; who joined through it stays; revoking again is nothing', (t) => {
  const given = [created, invited('read'), joined('reader', 'read')];
  spec(given).when(when('RevokeCollabInvite', { actorId: 'owner', inviteId: 'i-read' })).then(t, [revoked('read')]);
  spec([...given, revoked('read')]).when(when('RevokeCollabInvite', { actorId: 'owner', inviteId: 'i-read' })).then(t, []);
  spec([...given, revoked('read')]).when(when('JoinCollabDoc', { userId: 'late', tokenHash: 'hash-read' })).thenThrows(t, 'not_found', '此邀请链接已被文档所有者撤销，请向其索取新的链接');
  spec(given).when(when('RevokeCollabInvite', { actorId: 'owner', inviteId: 'never-given' })).thenThrows(t, 'not_found', '此文档没有这个邀请链接');
  spec(given).when(when('RevokeCollabInvite', { actorId: 'reader', inviteId: 'i-read' })).thenThrows(t, 'forbidden');
  spec(given).when(when('RevokeCollabInvite', { actorId: 'stranger', inviteId: 'i-read' })).thenThrows(t, 'not_found');
  const steps = typing([], 'x');
  spec([...given, invited('edit'), joined('editor', 'edit'), revoked('edit')]).when(when('SubmitCollabSteps', { userId: 'editor', clientId: 'c', version: 0, steps })).then(t, [accepted('editor', 0, steps, 'c')]);
});

test('the owner removes a member, who then sees nothing; removing a non-member is nothing; the owner cannot be removed', (t) => {
  const given = [created, invited('edit'), joined('editor', 'edit'), joined('other', 'edit')];
  spec(given).when(when('RemoveCollabMember', { actorId: 'owner', userId: 'editor' })).then(t, [removed('editor')]);
  spec([...given, removed('editor')]).when(when('RemoveCollabMember', { actorId: 'owner', userId: 'editor' })).then(t, []);
  spec([...given, removed('editor')]).when(when('SubmitCollabSteps', { userId: 'editor', clientId: 'c', version: 0, steps: typing([], 'x') })).thenThrows(t, 'not_found', '共享文档不存在');
  spec(given).when(when('RemoveCollabMember', { actorId: 'owner', userId: 'owner' })).thenThrows(t, 'conflict', '文档所有者不能被移除、退出或更改权限');
  spec(given).when(when('RemoveCollabMember', { actorId: 'editor', userId: 'other' })).thenThrows(t, 'forbidden');
  spec(given).when(when('RemoveCollabMember', { actorId: 'stranger', userId: 'editor' })).thenThrows(t, 'not_found');
});

test('a removed member comes back only through a link made after the removal; others still join through the old one', (t) => {
  const given = [created, invited('edit'), joined('editor', 'edit'), removed('editor')];
  spec(given).when(when('JoinCollabDoc', { userId: 'editor', tokenHash: 'hash-edit' })).thenThrows(t, 'forbidden', '文档所有者已将你移出此文档，旧的邀请链接对你不再有效，请向其索取新的链接');
  spec(given).when(when('JoinCollabDoc', { userId: 'newcomer', tokenHash: 'hash-edit' })).then(t, [joined('newcomer', 'edit')]);
  spec([...given, invited('read')]).when(when('JoinCollabDoc', { userId: 'editor', tokenHash: 'hash-read' })).then(t, [joined('editor', 'read')]);
  // Back in through the new link, they may use the old one again, as any member may (an edit link upgrades).
  spec([...given, invited('read'), joined('editor', 'read')]).when(when('JoinCollabDoc', { userId: 'editor', tokenHash: 'hash-edit' })).then(t, [joined('editor', 'edit')]);
});

test('a member leaves on their own, and again is refused as for anyone who is not a member; the owner cannot leave', (t) => {
  const given = [created, invited('read'), joined('reader', 'read')];
  const left: CollabDocEvent = { type: 'CollabMemberLeft', data: { docId: D, userId: 'reader', at: T1 } };
  spec(given).when(when('RemoveCollabMember', { actorId: 'reader', userId: 'reader' })).then(t, [left]);
  spec([...given, left]).when(when('RemoveCollabMember', { actorId: 'reader', userId: 'reader' })).thenThrows(t, 'not_found');
  spec(given).when(when('RemoveCollabMember', { actorId: 'owner', userId: 'owner' })).thenThrows(t, 'conflict');
  const state = [...given, left].reduce(evolve, initialState());
  t.deepEqual(state.status === 'open' && state.members, {});
});

test("the owner changes a member's role; the same role is nothing; only members, never the owner", (t) => {
  const given = [created, invited('edit'), joined('editor', 'edit')];
  const changed: CollabDocEvent = { type: 'CollabMemberRoleChanged', data: { docId: D, userId: 'editor', role: 'read', by: 'owner', at: T1 } };
  spec(given).when(when('ChangeCollabMemberRole', { actorId: 'owner', userId: 'editor', role: 'read' })).then(t, [changed]);
  spec([...given, changed]).when(when('ChangeCollabMemberRole', { actorId: 'owner', userId: 'editor', role: 'read' })).then(t, []);
  spec([...given, changed]).when(when('SubmitCollabSteps', { userId: 'editor', clientId: 'c', version: 0, steps: typing([], 'x') })).thenThrows(t, 'forbidden', '你只有查看权限，不能编辑此文档');
  spec(given).when(when('ChangeCollabMemberRole', { actorId: 'owner', userId: 'nobody', role: 'read' })).thenThrows(t, 'not_found', '此用户不是文档的成员');
  spec(given).when(when('ChangeCollabMemberRole', { actorId: 'owner', userId: 'owner', role: 'read' })).thenThrows(t, 'conflict');
  spec(given).when(when('ChangeCollabMemberRole', { actorId: 'editor', userId: 'editor', role: 'edit' })).thenThrows(t, 'forbidden');
});
