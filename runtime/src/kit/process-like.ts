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
  removeListener(event: string, listener: Listener): unknown;
  listeners(event: string): Listener[];
  kill(pid: number, signal?: string): unknown;
  exit(code?: number): unknown;
  stderr: { write(text: string): unknown };
  /** Node 20.16+: a built-in module without an import (the kit stays platform neutral). */
  getBuiltinModule?(id: string): unknown;
}

/** `--unhandled-rejections` mode from the flags Node was started with (Node's default `throw`). */
export function rejectionMode(proc: Pick<ProcessLike, 'execArgv' | 'env'>): string {
  const flags = [...proc.execArgv, ...(proc.env.NODE_OPTIONS ?? '').split(/\s+/)];
  let mode = 'throw';
  for (const flag of flags) {
    const m = /^--unhandled-rejections=([\w-]+)$/.exec(flag);
    if (m) mode = m[1]!;
  }
  return mode;
}

/** `value` as Node prints a crash (`util.inspect`: stack, cause, own properties). */
export function consoleLine(proc: Pick<ProcessLike, 'getBuiltinModule'>, value: unknown): string {
  try {
    const util = proc.getBuiltinModule?.('node:util') as
      { inspect(value: unknown): string } | undefined;
    if (util) return util.inspect(value);
  } catch {
    // fall through to the plain form
  }
  return value instanceof Error ? (value.stack ?? String(value)) : String(value);
}
