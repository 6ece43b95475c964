import type { RegisterBody, SignInReply, UserReply } from '@scriptorium/domain/protocol/http/auth';
import { api } from './client.ts';

export async function login(username: string, password: string): Promise<string> {
  const { access_token } = await api.post<SignInReply>('/auth/login', { form: { username, password } });
  return access_token;
}

export const register = (payload: RegisterBody) => api.post<UserReply, RegisterBody>('/auth/register', { json: payload });

export const fetchMe = () => api.get<UserReply>('/auth/me');
