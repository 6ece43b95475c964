import { z } from 'zod';

/**
 * What the query-string schemas share. A query arrives as text; a number in it is coerced, and the
 * schema says its input is a number, so a query's `z.input` is what the client passes (the client's
 * `api.get<Reply, Query>(…, { query })`, written into the URL by one helper) and a parameter the
 * schema does not know, or a value of the wrong kind, fails tsc there.
 */

/** A number in the query string: the client passes a number, the URL carries its digits. */
export const queryNumber = (params?: Parameters<typeof z.coerce.number>[0]) => z.coerce.number<number>(params);

/** `skip`/`limit` paging: the first `skip` rows left out, at most `maxLimit` answered. */
export const paging = (defaultLimit: number, maxLimit: number) =>
  z.object({
    skip: queryNumber().int('paging.skip_integer').min(0, 'paging.skip_negative').default(0),
    limit: queryNumber().int('paging.limit_integer').min(1, 'paging.limit_too_small').max(maxLimit, 'paging.limit_too_large').default(defaultLimit),
  });

/** A yes or no in the query string, as the URL spells it. */
export const queryFlag = z.enum(['true', 'false']).transform((value) => value === 'true');
