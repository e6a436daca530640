// The debug channel. Warnings (named, texts in the chunk) and everything else are formatted and
// redacted by ./debug-format.ts, a lazy chunk loaded on the first line logged (so a client with
// `debug` off never loads it). Lines keep their order; `idle()` resolves once all are written.
import type { MessageName } from './messages.ts';
import type { Logger } from './types.ts';

export interface Debug {
  /**
   * Only when `debug` is on. A function argument is called when the line is written; a leading
   * message name (./messages.ts) stands for its text.
   */
  log(...args: unknown[]): void;
  /**
   * Always shown: a message name of ./messages.ts (missing credentials, bad keys, conflicting
   * options, a bad service address, a kind of delivery failure) and the values of its `%s` / `%d`,
   * written in order with the other lines once the formatting chunk has loaded.
   */
  warn(message: MessageName, ...args: unknown[]): void;
  /** Always shown (`logLocally`). */
  info(...args: unknown[]): void;
  /** Resolves once every line logged so far is written. */
  idle(): Promise<unknown>;
}

export function createDebug(logger: Logger, enabled: boolean, secrets: readonly unknown[]): Debug {
  let chain: Promise<unknown> = Promise.resolve();
  const out = (fn: keyof Logger, args: unknown[]) => {
    chain = chain
      .then(() => import('./debug-format.ts'))
      .then((f) => f.write(logger, fn, args, secrets))
      .catch(() => undefined); // a broken logger never breaks the host
  };
  return {
    log: (...args) => enabled && out('debug', args),
    warn: (...args) => out('warn', args),
    info: (...args) => out('info', args),
    idle: () => chain,
  };
}
