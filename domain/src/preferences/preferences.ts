import { refuse } from '../refuse.ts';
import { assertNever, type Command, type Decider, type DomainEvent } from '@scriptorium/infra/eventsourcing/decider';

/** A user's choice among the models the deployment offers. */
export type ModelPreferenceSet = DomainEvent<'ModelPreferenceSet', { userId: string; model: string; at: string }>;
/** Whether a research plan waits for the user to start it (on) or starts after a short countdown (off, the default). */
export type PlanReviewPreferenceSet = DomainEvent<'PlanReviewPreferenceSet', { userId: string; reviewPlans: boolean; at: string }>;
export type PreferencesEvent = ModelPreferenceSet | PlanReviewPreferenceSet;

export interface Preferences {
  model: string | null;
  reviewPlans: boolean;
}

export type SetModelPreference = Command<'SetModelPreference', { userId: string; model: string; available: string[] }>;
export type SetPlanReviewPreference = Command<'SetPlanReviewPreference', { userId: string; reviewPlans: boolean }>;
export type PreferencesCommand = SetModelPreference | SetPlanReviewPreference;

export const initialState = (): Preferences => ({ model: null, reviewPlans: false });

export function evolve(state: Preferences, event: PreferencesEvent): Preferences {
  switch (event.type) {
    case 'ModelPreferenceSet':
      return { ...state, model: event.data.model };
    case 'PlanReviewPreferenceSet':
      return { ...state, reviewPlans: event.data.reviewPlans };
    default:
      return assertNever(event);
  }
}

export function decide(command: PreferencesCommand, state: Preferences): PreferencesEvent[] {
  switch (command.type) {
    case 'SetModelPreference': {
      const { userId, model, available } = command.data;
      if (!available.includes(model)) throw refuse('invalid', 'preferences.model_unavailable', { model }, 'model');
      if (state.model === model) return [];
      return [{ type: 'ModelPreferenceSet', data: { userId, model, at: command.metadata.now.toISOString() } }];
    }
    case 'SetPlanReviewPreference': {
      const { userId, reviewPlans } = command.data;
      if (state.reviewPlans === reviewPlans) return [];
      return [{ type: 'PlanReviewPreferenceSet', data: { userId, reviewPlans, at: command.metadata.now.toISOString() } }];
    }
    default:
      return assertNever(command);
  }
}

export const preferencesDecider: Decider<Preferences, PreferencesCommand, PreferencesEvent> = { initialState, evolve, decide };
export const preferencesStream = (userId: string): string => `preferences-${userId}`;
