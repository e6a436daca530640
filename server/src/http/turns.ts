// Fair turns of the event loop under load. A request's CPU work (decode, JSON.parse, validation,
// decryption: about 1 ms for a report with a 65 kB description) runs in the callback that
// delivered its body, and Node runs every callback ready in one phase of the loop before it looks
// at sockets again: 200 large reports arriving together held the loop for over 300 ms, and
// `/health` with it. Here the reports of one turn of the loop share a budget: once it is spent,
// a report waits for the next turn (setImmediate), and the answers, health checks and new
// requests ready meanwhile go first.

/** Resolves at once while this turn's budget lasts, else in a later turn of the event loop. */
export function createTurnBudget(budgetMs = 5): () => Promise<void> | undefined {
  let turnStarted = -1;
  let resetQueued = false;
  const reset = () => {
    turnStarted = -1;
    resetQueued = false;
  };
  const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));
  const take = (): Promise<void> | undefined => {
    const now = performance.now();
    if (turnStarted < 0) {
      turnStarted = now;
      if (!resetQueued) {
        resetQueued = true;
        setImmediate(reset);
      }
      return undefined;
    }
    if (now - turnStarted < budgetMs) return undefined;
    return nextTurn().then(take);
  };
  return take;
}
