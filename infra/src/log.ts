import { pino, type Logger } from 'pino';

export type { Logger };

/** JSON lines on stdout; the level comes from LOG_LEVEL. */
export const createLogger = (level: string, role: string): Logger =>
  pino({ level, base: { role }, timestamp: pino.stdTimeFunctions.isoTime });
