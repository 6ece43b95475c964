import { api } from './client.ts';
import type { MeDto, RegisterPayload } from './user.ts';

export async function login(username: string, password: string): Promise<string> {
  const { access_token } = await api.post<{ access_token: string; token_type: string }>('/auth/login', { form: { username, password } });
  return access_token;
}

export const register = (payload: RegisterPayload) => api.post<{ id: string; username: string }>('/auth/register', { json: payload });

export const fetchMe = () => api.get<MeDto>('/auth/me');
