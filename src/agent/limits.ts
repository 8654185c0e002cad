// The limits that end an episode, with defaults sized for small models.
export interface AgentLimits {
  /** Model turns in one episode. */
  maxSteps: number;
  /** Completion tokens per turn (a reply cut at this ends the episode: 'turn-token-limit'). */
  maxTokensPerTurn: number;
  /** Prompt size past which the episode ends ('context-limit'). */
  maxContextTokens: number;
  /** Wall-clock time for the whole episode. */
  wallTimeMs: number;
  /** Time limit for one command (the Bash tool's timeout is capped by it). */
  commandTimeoutMs: number;
  /** Longest observation shown to the model; longer ones are cut in the middle. */
  maxObservationChars: number;
}

export const DEFAULT_AGENT_LIMITS: Readonly<AgentLimits> = {
  maxSteps: 60,
  maxTokensPerTurn: 4096,
  maxContextTokens: 32768,
  wallTimeMs: 10 * 60_000,
  commandTimeoutMs: 60_000,
  maxObservationChars: 10_000,
};

/** Malformed actions in a row that end the episode ('format-errors'). */
export const MAX_FORMAT_ERRORS = 3;
