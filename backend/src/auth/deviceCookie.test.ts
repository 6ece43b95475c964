import test from 'ava';
import { DeviceCookies } from './deviceCookie.ts';

const cookies = new DeviceCookies('a-test-secret-that-is-long-enough-for-hs256');

test('a device cookie names its user and device, and is good only for that user', (t) => {
  const value = cookies.issue('user-1', 'device-a');
  t.is(cookies.deviceOf(value, 'user-1'), 'device-a');
  t.is(cookies.deviceOf(value, 'user-2'), null, "another user's cookie exempts nothing");
  t.truthy(cookies.deviceOf(cookies.issue('user-1'), 'user-1'), 'a new cookie gets a random device id');
});

test('an altered, truncated, foreign-keyed or absent cookie is not a device', (t) => {
  const value = cookies.issue('user-1', 'device-a');
  const [user, device, mac] = value.split('.') as [string, string, string];
  t.is(cookies.deviceOf(`${user}.device-b.${mac}`, 'user-1'), null);
  t.is(cookies.deviceOf(`${Buffer.from('user-2').toString('base64url')}.${device}.${mac}`, 'user-2'), null);
  t.is(cookies.deviceOf(`${user}.${device}.${mac.slice(0, -2)}`, 'user-1'), null);
  t.is(cookies.deviceOf(new DeviceCookies('another-secret-that-is-long-enough-too').issue('user-1', 'device-a'), 'user-1'), null);
  t.is(cookies.deviceOf(`${user}.${device}`, 'user-1'), null);
  t.is(cookies.deviceOf(undefined, 'user-1'), null);
});
