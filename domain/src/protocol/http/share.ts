import { z } from 'zod';

/** What every share request asks alike: how long its link stays open. */

export const MAX_EXPIRES_DAYS = 3650;

/** Whole days the link stays open, or `null` for a link that does not expire. */
export const expiresDays = z.number().int('share.expiry_whole_days').min(1, 'share.expiry_too_short').max(MAX_EXPIRES_DAYS, 'share.expiry_too_long').nullable().default(null);
