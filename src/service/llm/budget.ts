/**
 * The tokens one questionnaire may spend (QFILL_LLM_TOKEN_BUDGET), counted from the server's `usage`.
 * It starts from what the questionnaire's stored answers already spent (so a restart does not reset it),
 * and a request is sent only when its estimated cost still fits beside the requests in flight, so
 * concurrent requests overshoot the budget by at most the estimates' error, not by a whole round.
 */
export class TokenBudget {
  private reserved = 0;

  constructor(
    /** 0 = unlimited. */
    readonly limit: number,
    public spent = 0,
  ) {}

  /** Reserves `estimate` tokens for a request; false when it would not fit. */
  tryReserve(estimate: number): boolean {
    if (this.limit > 0 && this.spent + this.reserved + estimate > this.limit) return false;
    this.reserved += estimate;
    return true;
  }

  /** The request is over: its reservation is replaced by what the server says it used. */
  settle(estimate: number, used: number): void {
    this.reserved -= estimate;
    this.spent += used;
  }

  describe(): string {
    return `the token budget of ${this.limit} tokens per questionnaire (QFILL_LLM_TOKEN_BUDGET) is spent: ${this.spent} used`;
  }
}

/** A rough cost before sending: ~4 characters a token for the prompt, plus room for each answer. */
export function estimateTokens(promptChars: number, questions: number): number {
  return Math.ceil(promptChars / 4) + 200 * questions;
}
