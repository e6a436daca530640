// The slice of Node's `process` the crash handlers use (injected in tests; the kit itself never
// names `process`, so edge and browser bundles of it stay clean), and how Node itself would write
// and treat a crash.

type Listener = (...args: any[]) => void;

/** The slice of `process` the handlers use. */
export interface ProcessLike {
  pid: number;
  version: string;
  execArgv: string[];
  env: Record<string, string | undefined>;
  exitCode?: number | string | null | undefined;
  on(event: string, listener: Listener): unknown;
  /** Runs `listener` before the others (Svc's signal listener sees the host's `once` ones). */
  prependListener?(event: string, listener: Listener): unknown;
  removeListener(event: string, listener: Listener): unknown;
  listeners(event: string): Listener[];
  kill(pid: number, signal?: string): unknown;
  exit(code?: number): unknown;
  stderr: { write(text: string): unknown };
  /** Node 20.16+: a built-in module without an import (the kit stays platform neutral). */
  getBuiltinModule?(id: string): unknown;
}

/**
 * `--unhandled-rejections` mode from the flags Node was started with (Node's default `throw`):
 * `--unhandled-rejections=warn` or `--unhandled-rejections warn`, the command line's over
 * `NODE_OPTIONS`'s (Node reads `NODE_OPTIONS` first).
 */
export function rejectionMode(proc: Pick<ProcessLike, 'execArgv' | 'env'>): string {
  const flags = [...(proc.env.NODE_OPTIONS ?? '').split(/\s+/), ...proc.execArgv];
  let mode = 'throw';
  flags.forEach((flag, index) => {
    const m = /^--unhandled-rejections(?:=([\w-]+))?$/.exec(flag);
    const value = m && (m[1] ?? flags[index + 1]);
    if (value) mode = value;
  });
  return mode;
}

/** `value` as Node prints a crash (`util.inspect`: stack, cause, own properties). Never throws. */
export function consoleLine(proc: Pick<ProcessLike, 'getBuiltinModule'>, value: unknown): string {
  try {
    const util = proc.getBuiltinModule?.('node:util') as
      { inspect(value: unknown, options?: object): string } | undefined;
    if (util) {
      try {
        return util.inspect(value);
      } catch {
        return util.inspect(value, { customInspect: false }); // a throwing [inspect.custom]
      }
    }
    return value instanceof Error ? (value.stack ?? String(value)) : String(value);
  } catch {
    return Object.prototype.toString.call(value); // a value that cannot even be printed
  }
}

/**
 * What Node hands `uncaughtException` listeners for an unhandled rejection it raises: the reason
 * when it looks like an error (an object with its own `stack`), else Node's
 * `UnhandledPromiseRejection` error (`code: 'ERR_UNHANDLED_REJECTION'`) naming the reason.
 */
export function rejectionAsException(reason: unknown): unknown {
  try {
    if (typeof reason === 'object' && reason !== null && Object.hasOwn(reason, 'stack'))
      return reason;
  } catch {
    // a Proxy that throws on every question: wrapped as any other value
  }
  let shown: string;
  try {
    shown = String(reason);
  } catch {
    shown = Object.prototype.toString.call(reason);
  }
  const error = new Error(
    'This error originated either by throwing inside of an async function without a catch block, ' +
      'or by rejecting a promise which was not handled with .catch(). The promise rejected with ' +
      `the reason "${shown}".`,
  );
  error.name = 'UnhandledPromiseRejection';
  return Object.assign(error, { code: 'ERR_UNHANDLED_REJECTION' });
}
