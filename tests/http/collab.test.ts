import test from 'ava';
import { signUp, startTestApp, type Client, type TestApp } from '../support/app.ts';

/**
 * Managing a shared document over HTTP: its owner renames it, lists and revokes its links, lists,
 * removes and re-roles its members; a member leaves. Members are told 403 for what only the owner
 * may do, strangers 404 as for any document of someone else's.
 */

let app: TestApp;
test.before(async () => {
  app = await startTestApp();
});
test.after.always(async () => {
  await app?.stop();
});

const base = '/backend/api/collab';

async function join(owner: Client, guest: Client, id: string, role: 'edit' | 'read') {
  const invite = (await owner.request('POST', `${base}/docs/${id}/invites`, { role })).body;
  const accepted = await guest.request('POST', `${base}/invites/accept`, { token: invite.token });
  if (accepted.status !== 200) throw new Error(`accept: ${accepted.status}`);
  return invite as { id: string; token: string };
}

test.serial('the owner renames; every member sees the new title; bad titles are refused with the fields named; others may not rename', async (t) => {
  const owner = await signUp(app.url, 'cm_owner1');
  const editor = await signUp(app.url, 'cm_editor1');
  const stranger = await signUp(app.url, 'cm_stranger1');
  const id = (await owner.request('POST', `${base}/docs`, { title: '周报' })).body.id as string;
  await join(owner, editor, id, 'edit');

  const renamed = await owner.request('PATCH', `${base}/docs/${id}`, { title: '  月报  ' });
  t.like(renamed, { status: 200, body: { id, title: '月报', access: 'owner' } });
  t.is((await editor.request('GET', `${base}/docs/${id}`)).body.title, '月报');
  t.is((await editor.request('GET', `${base}/docs`)).body.docs[0].title, '月报');
  t.like(await owner.request('PATCH', `${base}/docs/${id}`, { title: '月报' }), { status: 200, body: { title: '月报' } });

  const empty = await owner.request('PATCH', `${base}/docs/${id}`, { title: '   ' });
  t.is(empty.status, 422);
  t.like(empty.body.detail[0], { loc: ['body', 'title'], code: 'collab.title_empty', msg: '请填写文档标题' });
  const long = await owner.request('PATCH', `${base}/docs/${id}`, { title: 'x'.repeat(201) });
  t.like(long.body.detail[0], { loc: ['body', 'title'], code: 'collab.title_too_long' });
  t.like((await owner.request('PATCH', `${base}/docs/${id}`, { title: 'x', extra: 1 })).body, { detail: [{ loc: ['body'] }] });

  t.like(await editor.request('PATCH', `${base}/docs/${id}`, { title: '抢' }), { status: 403, body: { code: 'collab.owner_only_manage' } });
  t.like(await stranger.request('PATCH', `${base}/docs/${id}`, { title: '抢' }), { status: 404, body: { code: 'collab.not_found' } });
});

test.serial('the owner lists live links with how many joined through each and revokes one; joining it then fails with its own code, who joined stays', async (t) => {
  const owner = await signUp(app.url, 'cm_owner2');
  const reader = await signUp(app.url, 'cm_reader2');
  const late = await signUp(app.url, 'cm_late2');
  const stranger = await signUp(app.url, 'cm_stranger2');
  const id = (await owner.request('POST', `${base}/docs`, { title: '链接' })).body.id as string;
  const read = await join(owner, reader, id, 'read');
  const edit = (await owner.request('POST', `${base}/docs/${id}/invites`, { role: 'edit' })).body;

  const listed = (await owner.request('GET', `${base}/docs/${id}/invites`)).body.invites;
  t.deepEqual(
    listed.map((invite: { id: string; role: string; joined_count: number }) => [invite.id, invite.role, invite.joined_count]).sort(),
    [[read.id, 'read', 1], [edit.id, 'edit', 0]].sort(),
  );
  t.false(JSON.stringify(listed).includes(read.token.split('.')[1]!), 'the secret is never listed');
  t.like(await reader.request('GET', `${base}/docs/${id}/invites`), { status: 403, body: { code: 'collab.owner_only_manage' } });
  t.like(await stranger.request('GET', `${base}/docs/${id}/invites`), { status: 404 });
  t.like(await reader.request('DELETE', `${base}/docs/${id}/invites/${read.id}`), { status: 403, body: { code: 'collab.owner_only_manage' } });
  t.like(await stranger.request('DELETE', `${base}/docs/${id}/invites/${read.id}`), { status: 404, body: { code: 'collab.not_found' } });

  t.is((await owner.request('DELETE', `${base}/docs/${id}/invites/${read.id}`)).status, 204);
  t.is((await owner.request('DELETE', `${base}/docs/${id}/invites/${read.id}`)).status, 204, 'revoking again changes nothing');
  t.deepEqual((await owner.request('GET', `${base}/docs/${id}/invites`)).body.invites.map((invite: { id: string }) => invite.id), [edit.id]);
  const refused = await late.request('POST', `${base}/invites/accept`, { token: read.token });
  t.like(refused, { status: 404, body: { code: 'collab.invite_revoked', detail: '此邀请链接已被文档所有者撤销，请向其索取新的链接' } });
  t.is((await reader.request('GET', `${base}/docs/${id}`)).status, 200, 'who joined through the link keeps their access');
  t.like(await owner.request('DELETE', `${base}/docs/${id}/invites/00000000-0000-4000-8000-000000000000`), { status: 404, body: { code: 'collab.invite_not_found' } });
  const malformed = await owner.request('DELETE', `${base}/docs/${id}/invites/nope`);
  t.is(malformed.status, 422);
  t.like(malformed.body.detail[0], { loc: ['path', 'inviteId'], code: 'collab.invite_not_found' });
});

test.serial('the owner lists and removes members, who lose the document at once and come back only by a new link; a member leaves; the owner stays', async (t) => {
  const owner = await signUp(app.url, 'cm_owner3');
  const editor = await signUp(app.url, 'cm_editor3');
  const reader = await signUp(app.url, 'cm_reader3');
  const stranger = await signUp(app.url, 'cm_stranger3');
  const id = (await owner.request('POST', `${base}/docs`, { title: '成员' })).body.id as string;
  const editLink = await join(owner, editor, id, 'edit');
  await join(owner, reader, id, 'read');

  const listed = (await reader.request('GET', `${base}/docs/${id}/members`)).body.members;
  t.deepEqual(listed.map((member: { name: string; access: string }) => [member.name, member.access]), [['cm_owner3', 'owner'], ['cm_editor3', 'edit'], ['cm_reader3', 'read']]);
  t.true(listed.every((member: { joined_at: string }) => typeof member.joined_at === 'string'));
  t.like(await stranger.request('GET', `${base}/docs/${id}/members`), { status: 404 });

  t.like(await editor.request('DELETE', `${base}/docs/${id}/members/${reader.userId}`), { status: 403, body: { code: 'collab.owner_only_manage' } });
  t.like(await owner.request('DELETE', `${base}/docs/${id}/members/${owner.userId}`), { status: 409, body: { code: 'collab.owner_fixed' } });
  t.like(await stranger.request('DELETE', `${base}/docs/${id}/members/${editor.userId}`), { status: 404 });

  t.is((await owner.request('DELETE', `${base}/docs/${id}/members/${editor.userId}`)).status, 204);
  t.is((await owner.request('DELETE', `${base}/docs/${id}/members/${editor.userId}`)).status, 204, 'removing a non-member changes nothing');
  t.like(await editor.request('GET', `${base}/docs/${id}`), { status: 404, body: { code: 'collab.not_found' } });
  t.like(await editor.request('GET', `${base}/docs/${id}/history`), { status: 404 });
  t.deepEqual((await editor.request('GET', `${base}/docs`)).body.docs, []);
  t.is((await owner.request('GET', `${base}/docs`)).body.docs[0].member_count, 2);
  // The link they joined by is still live for others, not for them: only a link made after the removal.
  t.like(await editor.request('POST', `${base}/invites/accept`, { token: editLink.token }), { status: 403, body: { code: 'collab.removed' } });
  t.deepEqual((await editor.request('GET', `${base}/docs`)).body.docs, [], 'a refused link changes nothing');
  await join(owner, editor, id, 'read');
  t.like(await editor.request('GET', `${base}/docs/${id}`), { status: 200 });
  t.is((await owner.request('DELETE', `${base}/docs/${id}/members/${editor.userId}`)).status, 204);

  t.like(await reader.request('PUT', `${base}/docs/${id}/members/${reader.userId}`, { role: 'edit' }), { status: 403 });
  t.like(await owner.request('PUT', `${base}/docs/${id}/members/${editor.userId}`, { role: 'edit' }), { status: 404, body: { code: 'collab.member_not_found' } });
  const badRole = await owner.request('PUT', `${base}/docs/${id}/members/${reader.userId}`, { role: 'admin' });
  t.like(badRole, { status: 422, body: { detail: [{ loc: ['body', 'role'], code: 'collab.role_invalid' }] } });
  const promoted = await owner.request('PUT', `${base}/docs/${id}/members/${reader.userId}`, { role: 'edit' });
  t.like(promoted.body.members[1], { name: 'cm_reader3', access: 'edit' });

  t.is((await reader.request('DELETE', `${base}/docs/${id}/members/${reader.userId}`)).status, 204);
  t.deepEqual((await reader.request('GET', `${base}/docs`)).body.docs, []);
  t.like(await reader.request('DELETE', `${base}/docs/${id}/members/${reader.userId}`), { status: 404, body: { code: 'collab.not_found' } });
  t.deepEqual((await owner.request('GET', `${base}/docs/${id}/members`)).body.members.map((member: { name: string }) => member.name), ['cm_owner3']);
});
