import { DomainError, type DomainErrorKind } from '@scriptorium/infra/eventsourcing/decider';
import { anyErrorText, type ErrorCode, type ErrorParams, type ParamsThen } from './protocol/errors.ts';

/** A refusal whose text comes from the catalogue, so its code and its Chinese detail cannot drift. */
export function refuse<Code extends ErrorCode>(kind: DomainErrorKind, code: Code, ...[params, field]: ParamsThen<Code, [field?: string]>): DomainError {
  const given = (params ?? {}) as ErrorParams<Code>;
  return new DomainError(kind, code, anyErrorText(code, given), given, field);
}
