import { z } from 'zod';

/** The reply of a route that deleted what it names, and says only that (agents, cognitions, collections, trajectory files). */
export const deleted = z.object({ deleted: z.literal(true) });
/** The reply of a route that revoked a share link, and says only that (notes, trajectory files). */
export const revoked = z.object({ revoked: z.literal(true) });

export type Deleted = z.infer<typeof deleted>;
export type Revoked = z.infer<typeof revoked>;
