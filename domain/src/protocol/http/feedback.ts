import { z } from 'zod';
import { FEEDBACK_MAX_LENGTH, FEEDBACK_TYPES } from '../limits.ts';

/** User feedback (`/backend/email/user-feedback`): what it takes and answers; see `oauth.ts` for how they are shared. */


export const feedbackBody = z.object({
  feedback_type: z.enum(FEEDBACK_TYPES, { error: 'feedback.type_invalid' }),
  feedback_text: z.string({ error: 'feedback.text_required' }).trim().min(1, 'feedback.text_empty').max(FEEDBACK_MAX_LENGTH, 'feedback.text_too_long'),
});

export const feedbackSent = z.object({ message: z.string(), feedback_id: z.string() });

export type FeedbackBody = z.input<typeof feedbackBody>;
export type FeedbackSent = z.infer<typeof feedbackSent>;
