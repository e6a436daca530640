// Whether the service can be reached, shared by one client's deliveries (part of the lazy transport
// chunk). A failure that carries a status concerns one report: it keeps its own retries (contract
// 7, 8.4). A network failure (refused, reset, no answer in time) concerns the service: it counts as
// unreachable (`down`) until an answer proves it back, the report that met it becomes the probe,
// and the other deliveries wait for it instead of retrying one by one. The probe keeps its retries
// and backoff; any answer (whatever the status) lets the others go; the probe giving up on a
// network failure fails them with it, and the reports queued before that (`gaveUpAt`).

export interface Link {
  /** The delivery probing the service while it is known unreachable. */
  probe?: object;
  /** When the last probe gave up (ms since the epoch): reports prepared before it fail unsent. */
  gaveUpAt?: number;
  /** The last attempt met no answer; cleared by the next answer. */
  down?: boolean;
  /** Deliveries waiting for the probe: called with true (reachable) or false (given up). */
  waiting: Set<(go: boolean) => void>;
}

export const createLink = (): Link => ({ waiting: new Set() });

/**
 * Before an attempt of `delivery`: true at once when the service is not known unreachable (or
 * `delivery` is the probe), else a promise of the probe's verdict; false when `stop` aborts first.
 */
export function admit(
  link: Link,
  delivery: object,
  stop?: AbortSignal,
): boolean | Promise<boolean> {
  if (!link.probe || link.probe === delivery) return true;
  return new Promise((resolve) => {
    const done = (go: boolean) => {
      link.waiting.delete(done);
      stop?.removeEventListener('abort', abort);
      resolve(go);
    };
    const abort = () => done(false);
    link.waiting.add(done);
    stop?.addEventListener('abort', abort);
  });
}

/** After an attempt met no answer: the service is down; `delivery` probes if nobody does. */
export function failed(link: Link, delivery: object): void {
  link.down = true;
  link.probe ??= delivery;
}

/** The service answered (or the probe gave up: `reachable` false): the waiting deliveries go on. */
export function settle(link: Link, reachable: boolean): void {
  if (reachable) link.down = false;
  link.probe = undefined;
  if (link.waiting.size) for (const done of [...link.waiting]) done(reachable);
}
