/**
 * The projector's progress said between processes: after committing a batch, the projector
 * announces the position every read model has reached; api processes in split roles wait on it
 * (read-your-writes) instead of polling the checkpoints.
 */
export interface ProgressSignal {
  /** Says that every read model is at or past `position`; delivered to listeners in the order said. */
  announce(position: number): Promise<void>;
  /**
   * Calls `heard` with every position announced from the moment the returned promise resolves, for
   * as long as the connection holds. Resolves once listening (again, after a lost connection).
   */
  listen(heard: (position: number) => void): Promise<void>;
  /** False while announcements may be missed (the connection was lost and is not back yet). */
  readonly listening: boolean;
  close(): Promise<void>;
}
