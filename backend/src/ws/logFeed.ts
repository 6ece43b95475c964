import type { EventStore, RecordedEvent } from '@scriptorium/infra/eventstore/port';
import type { Logger } from '@scriptorium/infra/log';

export interface LogFeed {
  stop(): Promise<void>;
}

/** One subscription to the log after `position`, handing every new event to `publish`: a gateway's fan-out. */
export function followLog(events: EventStore, log: Logger, label: string, position: number, publish: (event: RecordedEvent) => void): LogFeed {
  const subscription = events.subscribeToAll({ after: position });
  const loop = (async () => {
    try {
      for await (const event of subscription) publish(event);
    } catch (error) {
      log.error({ err: error }, `${label} fan-out stopped`);
    }
  })();
  return {
    async stop() {
      await subscription.close();
      await loop;
    },
  };
}
