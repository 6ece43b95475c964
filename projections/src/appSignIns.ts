import type { RecordedEvent } from '@scriptorium/infra/eventstore/port';
import type { Doc } from '@scriptorium/infra/readstore/port';
import { assertNever } from '@scriptorium/infra/eventsourcing/decider';
import type { AppSignInEvent, AppSignInRevocationReason } from '@scriptorium/domain/signin/appSignIn';
import { DEFAULT_SCOPE } from '@scriptorium/domain/oauth/clients';
import type { Projection } from './projection.ts';

/**
 * The password sign-ins apps made (the command-line assistant's `login --password`): one document
 * each, listed beside the OAuth grants under "Authorised apps" while `active` and before `expires_at`.
 * A token naming a sign-in that is not active here is refused.
 */
export interface AppSignInDoc extends Doc {
  user_id: string;
  client_id: string;
  device_name: string;
  /** What its token may do, space-separated; absent on a document projected before scopes (`account`). */
  scope?: string;
  status: 'active' | 'revoked';
  signed_in_at: string;
  expires_at: string;
  last_used_at: string;
  revoked_at: string | null;
  revoked_reason: AppSignInRevocationReason | null;
}

export const APP_SIGN_INS = 'app_sign_ins';

export const appSignInsProjection: Projection = {
  name: 'appSignIns',
  collections: [APP_SIGN_INS],
  handles: ['AppSignedIn', 'AppSignInUsed', 'AppSignInRevoked'] satisfies AppSignInEvent['type'][],
  async setup(store) {
    await store.collection(APP_SIGN_INS).ensureIndex({ fields: { user_id: 1, status: 1 } });
  },
  async apply(recorded: RecordedEvent, tx) {
    const signIns = tx.collection<AppSignInDoc>(APP_SIGN_INS);
    const event = { type: recorded.type, data: recorded.data } as AppSignInEvent;
    switch (event.type) {
      case 'AppSignedIn': {
        const { signInId, userId, clientId, deviceName, signedInAt, expiresAt, scope } = event.data;
        await signIns.put({
          _id: signInId,
          user_id: userId,
          client_id: clientId,
          device_name: deviceName,
          scope: scope ?? DEFAULT_SCOPE,
          status: 'active',
          signed_in_at: signedInAt,
          expires_at: expiresAt,
          last_used_at: signedInAt,
          revoked_at: null,
          revoked_reason: null,
        });
        return;
      }
      case 'AppSignInUsed':
        await signIns.update(event.data.signInId, { $set: { last_used_at: event.data.usedAt } });
        return;
      case 'AppSignInRevoked':
        await signIns.update(event.data.signInId, { $set: { status: 'revoked', revoked_at: event.data.revokedAt, revoked_reason: event.data.reason } });
        return;
      default:
        assertNever(event);
    }
  },
};
