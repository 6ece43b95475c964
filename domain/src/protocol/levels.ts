/**
 * Membership levels and what each starts with, shared by the server and the admin console (which
 * shows a level's default daily limit before an admin decides whether to apply it).
 */

export const LEVELS = ['basic', 'premium', 'vip', 'admin'] as const;
export type Level = (typeof LEVELS)[number];

/** Daily limit a level starts with, in coins; the spec's default (basic) is 100. */
export const LEVEL_DAILY_LIMITS: Record<Level, number> = { basic: 100, premium: 300, vip: 1000, admin: 10000 };

/**
 * What a level change does to the daily limit: take the new level's default, or keep the limit the
 * user has (which an admin may have set by hand). A level change never decides this on its own.
 */
export const DAILY_LIMIT_CHOICES = ['level_default', 'keep'] as const;
export type DailyLimitChoice = (typeof DAILY_LIMIT_CHOICES)[number];
