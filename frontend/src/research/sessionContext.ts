import { createContext, useContext } from 'react';
import type { ResearchSessionRef } from '../machines/researchSession.ts';

/** The session the panels show; panels send it events instead of calling a store. */
export const SessionRefContext = createContext<ResearchSessionRef | null>(null);

export const useSessionRef = (): ResearchSessionRef | null => useContext(SessionRefContext);
