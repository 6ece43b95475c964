import { useSelector } from '@xstate/react';
import { createActor } from 'xstate';
import type { CognitionSummary } from './api.ts';
import { synthesisMachine } from './synthesisMachine.ts';

/** The page's one synthesis mode, shared by the side panel, the cards and the bar. */
export const synthesisMode = createActor(synthesisMachine).start();

export const useSynthesisOn = (): boolean => useSelector(synthesisMode, (snapshot) => snapshot.matches('on'));

export const useSynthesisPicks = (): readonly CognitionSummary[] => useSelector(synthesisMode, (snapshot) => snapshot.context.selected);
