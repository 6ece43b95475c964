/** The agents a reply can come from; the wire names them, so the protocol owns the list. */
export const AGENTS = ['poe_llm', 'deep_cognition', 'targeted_edit', 'direct_writing_agent'] as const;
export type AgentName = (typeof AGENTS)[number];
