import Router from '@koa/router';
import type { ProjectionProgress } from '@scriptorium/projections/runner';
import { USERS, type UserDoc } from '@scriptorium/projections/users';
import { feedbackDecider } from '@scriptorium/domain/feedback/decide';
import { feedbackStream } from '@scriptorium/domain/feedback/feedback';
import { feedbackMail } from '@scriptorium/domain/mail/templates';
import type { Services } from '../services.ts';
import { requireUser } from './authenticate.ts';
import { parseBody } from './validate.ts';
import { contract } from './contract.ts';
import { feedbackBody, feedbackSent } from '@scriptorium/domain/protocol/http/feedback';

/** User feedback: stored as an event first, then mailed to the administrators. */
export function feedbackRoutes(services: Services, progress: ProjectionProgress): Router {
  const router = new Router();

  router.post('/email/user-feedback', contract({ access: 'user', body: feedbackBody, responses: { 200: feedbackSent } }), async (ctx) => {
    const user = await requireUser(services, ctx);
    const body = parseBody(ctx, feedbackBody);
    const feedbackId = crypto.randomUUID();
    const result = await services.commands.handle(feedbackDecider, feedbackStream(feedbackId), {
      type: 'SubmitFeedback',
      data: { feedbackId, userId: user.id, username: user.doc.username, email: user.doc.email, feedbackType: body.feedback_type, text: body.feedback_text },
      metadata: { now: services.clock(), userId: user.id },
    });
    await progress.waitFor(result.position);
    const submitted = result.newEvents[0];
    const admins = await services.readStore.collection<UserDoc>(USERS).find({ is_admin: true, is_active: true });
    if (submitted && admins.length > 0) {
      // The feedback is kept whatever the mail does; a failed mail is only logged, the admins still see it in the console.
      await services.mailer
        .send(feedbackMail(admins.map((admin) => admin.email), submitted.data))
        .catch((error: unknown) => ctx.state.log?.warn({ err: error, feedbackId }, 'feedback mail to admins failed'));
    }
    ctx.body = { message: '反馈已发送，感谢您的支持', feedback_id: feedbackId };
  });

  return router;
}
