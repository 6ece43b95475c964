import type { RecordedEvent } from '@scriptorium/infra/eventstore/port';
import type { Doc } from '@scriptorium/infra/readstore/port';
import { assertNever } from '@scriptorium/infra/eventsourcing/decider';
import type { OAuthEvent, RevocationReason } from '@scriptorium/domain/oauth/grant';
import type { Projection } from './projection.ts';

/**
 * The apps a user authorised: one document per grant. `issued` until its code is exchanged (what the
 * status dialog lists is `active` only), `last_used_at` the last time it bought tokens (an exchange or
 * a refresh) or used one (recorded every few minutes at most), and `revoked` for good: an access token naming a grant that is not active is refused.
 */
export interface OAuthGrantDoc extends Doc {
  user_id: string;
  client_id: string;
  scope: string;
  status: 'issued' | 'active' | 'revoked';
  issued_at: string;
  granted_at: string | null;
  last_used_at: string | null;
  revoked_at: string | null;
  revoked_reason: RevocationReason | null;
}

export const OAUTH_GRANTS = 'oauth_grants';

export const oauthGrantsProjection: Projection = {
  name: 'oauthGrants',
  collections: [OAUTH_GRANTS],
  handles: ['OAuthCodeIssued', 'OAuthCodeExchanged', 'OAuthRefreshRotated', 'OAuthGrantRevoked', 'OAuthGrantUsed'] satisfies OAuthEvent['type'][],
  async setup(store) {
    await store.collection(OAUTH_GRANTS).ensureIndex({ fields: { user_id: 1, status: 1 } });
  },
  async apply(recorded: RecordedEvent, tx) {
    const grants = tx.collection<OAuthGrantDoc>(OAUTH_GRANTS);
    const event = { type: recorded.type, data: recorded.data } as OAuthEvent;
    switch (event.type) {
      case 'OAuthCodeIssued': {
        const { grantId, userId, clientId, scope, issuedAt } = event.data;
        await grants.put({ _id: grantId, user_id: userId, client_id: clientId, scope, status: 'issued', issued_at: issuedAt, granted_at: null, last_used_at: null, revoked_at: null, revoked_reason: null });
        return;
      }
      case 'OAuthCodeExchanged':
        await grants.update(event.data.grantId, { $set: { status: 'active', granted_at: event.data.exchangedAt, last_used_at: event.data.exchangedAt } });
        return;
      case 'OAuthRefreshRotated':
        await grants.update(event.data.grantId, { $set: { last_used_at: event.data.rotatedAt } });
        return;
      case 'OAuthGrantUsed':
        await grants.update(event.data.grantId, { $set: { last_used_at: event.data.usedAt } });
        return;
      case 'OAuthGrantRevoked':
        await grants.update(event.data.grantId, { $set: { status: 'revoked', revoked_at: event.data.revokedAt, revoked_reason: event.data.reason } });
        return;
      default:
        assertNever(event);
    }
  },
};
