// Drives the sliced generators of this folder (scan, flatten): all at once (`runAll`, for tests and
// small maps), or one slice per event-loop turn (`runSliced`), so other requests are answered
// while a large map is checked.
import { setImmediate as nextTurn } from 'node:timers/promises';

export function runAll<T>(steps: Generator<void, T>): T {
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
  }
}

export async function runSliced<T>(steps: Generator<void, T>): Promise<T> {
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
    await nextTurn();
  }
}
