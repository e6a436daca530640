import { availableParallelism } from 'node:os';

// How the service's suites share the machine. They wait on sockets, timers, child processes and
// PostgreSQL far more than they compute: run one file at a time (vitest's default on 2 cores is
// cores - 1 = 1 worker), a file keeps about a third of one core busy (alerts, mail, http and cli:
// 135 s wall for 45 s of CPU). So the `server` and `server-pg` projects run as a group of their
// own (vitest runs groups one after another, each with one worker count), three files at a time
// even on 2 cores: those four folders took 46 s instead of 135 s in one measurement.
export const SERVICE_SUITES = {
  sequence: { groupOrder: 1 },
  maxWorkers: Math.max(3, availableParallelism() - 1),
};
