import { spawn, type ChildProcess, type SpawnOptions } from 'node:child_process';

export interface Spawned {
  child: ChildProcess;
  /** Everything the process printed so far (stdout and stderr), colour codes removed. */
  output(): string;
  /**
   * Resolves with the first match of `pattern` in the output, colour codes removed (a tool that
   * sees FORCE_COLOR or a CI terminal writes `Local` and `:` in separate colours); rejects after
   * `timeoutMs`.
   */
  waitFor(pattern: RegExp, timeoutMs?: number): Promise<RegExpMatchArray>;
  /** Resolves with the exit code (or signal name) once the process ends. */
  exited: Promise<number | string>;
  /** Signals the process and everything it started (its process group). @default 'SIGTERM' */
  kill(signal?: NodeJS.Signals): void;
}

// ESC [ parameters final-byte: the SGR colour sequences terminals and CI logs carry.
// biome-ignore lint/suspicious/noControlCharactersInRegex: ESC opens the colour codes removed here
const COLOUR_CODE = /\u001b\[[0-9;]*[A-Za-z]/g;

function withoutColour(text: string): string {
  return text.replace(COLOUR_CODE, '');
}

// Each process starts its own process group, so `kill` reaches what it started too: `npm start`
// runs `next start`, which runs `next-server`; signalling npm alone left those serving after the
// test (a leaked server per run). Groups still alive when the test process exits are killed then.
const liveGroups = new Set<number>();
process.once('exit', () => {
  for (const group of liveGroups) signalGroup(group, 'SIGKILL');
});

function signalGroup(group: number, signal: NodeJS.Signals): boolean {
  try {
    process.kill(-group, signal);
    return true;
  } catch {
    return false; // the whole group has exited
  }
}

export function spawnProcess(command: string, args: string[], options: SpawnOptions = {}): Spawned {
  const child = spawn(command, args, {
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
    ...options,
  });
  const group = child.pid;
  if (group !== undefined) liveGroups.add(group);
  let out = '';
  const waiters = new Set<() => void>();
  const onData = (chunk: Buffer) => {
    out += chunk.toString();
    for (const w of waiters) w();
  };
  child.stdout?.on('data', onData);
  child.stderr?.on('data', onData);
  const exited = new Promise<number | string>((resolve) => {
    child.on('exit', (code, signal) => resolve(code ?? signal ?? -1));
  });
  return {
    child,
    output: () => withoutColour(out),
    exited,
    kill: (signal = 'SIGTERM') => {
      if (group === undefined || !signalGroup(group, signal)) {
        if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      }
      if (signal === 'SIGKILL' && group !== undefined) liveGroups.delete(group);
    },
    waitFor(pattern, timeoutMs = 60_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const m = withoutColour(out).match(pattern);
          if (m) {
            cleanup();
            resolve(m);
          }
        };
        const timer = setTimeout(() => {
          cleanup();
          reject(
            new Error(
              `timed out waiting for ${pattern}; output:\n${withoutColour(out).slice(-4000)}`,
            ),
          );
        }, timeoutMs);
        const cleanup = () => {
          clearTimeout(timer);
          waiters.delete(check);
        };
        waiters.add(check);
        exited.then(() => {
          if (waiters.has(check)) {
            cleanup();
            reject(
              new Error(
                `process exited before ${pattern}; output:\n${withoutColour(out).slice(-4000)}`,
              ),
            );
          }
        });
        check();
      });
    },
  };
}
