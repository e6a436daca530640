// Which site a report is about: the root cause's throw site, or the reporting call site.
import { eachFrame, type Frame, parseStack } from './stack.ts';

/** Deepest `cause` we follow; also guards against cycles. */
const MAX_CAUSE_DEPTH = 16;

/**
 * Synthetic wrapper errors other SDKs attach to a chain: their stack is not a throw site.
 * Sentry's React ErrorBoundary sets `error.cause` to an Error named `React ErrorBoundary <name>`
 * whose stack is the React component stack.
 */
const SYNTHETIC_NAME = /^React ErrorBoundary\b/;

/**
 * Frames of the SDK itself and of its integrations: `@svc/*` packages under node_modules, the
 * monorepo's `runtime/` and `integrations/<name>/` sources and builds, and Vite's pre-bundled
 * `@svc_*` deps. Skipped when looking for the reporting call site.
 */
export const SDK_FRAME =
  /[\\/]node_modules[\\/](?:@svc[\\/]|\.vite[\\/]deps[\\/]@svc_)|[\\/](?:runtime|integrations[\\/][^\\/]+)[\\/](?:src|dist)[\\/]/;

interface ErrorLike {
  stack?: unknown;
  name?: unknown;
  cause?: unknown;
}

export function isErrorLike(value: unknown): value is ErrorLike {
  return (
    value instanceof Error ||
    (typeof value === 'object' && value !== null && typeof (value as ErrorLike).stack === 'string')
  );
}

function isSynthetic(error: ErrorLike): boolean {
  return typeof error.name === 'string' && SYNTHETIC_NAME.test(error.name);
}

/**
 * The errors of the `cause` chain from the root cause back to `error` (deepest first), without
 * synthetic wrappers. Empty when `description` is not an Error.
 */
export function causeChain(description: unknown): ErrorLike[] {
  const chain: ErrorLike[] = [];
  let current: unknown = description;
  while (isErrorLike(current) && chain.length < MAX_CAUSE_DEPTH && !chain.includes(current)) {
    if (!isSynthetic(current)) chain.unshift(current);
    try {
      current = current.cause;
    } catch {
      break; // a throwing `cause` getter ends the chain
    }
  }
  return chain;
}

/** Throw site of the deepest error in the chain whose stack has a usable frame. */
export function throwSite(description: unknown): Frame | undefined {
  for (const error of causeChain(description)) {
    const [top] = parseStack(safeStack(error), 1);
    if (top) return top;
  }
  return undefined;
}

/** First frame of `stack` outside the SDK and its integrations. */
export function callSite(stack: string | undefined): Frame | undefined {
  let site: Frame | undefined;
  eachFrame(stack, (frame) => {
    if (SDK_FRAME.test(frame.file)) return false;
    site = frame;
    return true;
  });
  return site;
}

/**
 * Up to `limit` frames of `stack` from the first one outside the SDK and its integrations (by URL
 * or path).
 * In a bundle the SDK shares the app's chunk; the browser resolver skips those frames once their
 * original sources are known.
 */
export function callSites(stack: string | undefined, limit = 8): Frame[] {
  const frames: Frame[] = [];
  eachFrame(stack, (frame) => {
    if (frames.length === 0 && SDK_FRAME.test(frame.file)) return false;
    return frames.push(frame) >= limit;
  });
  return frames;
}

function safeStack(error: ErrorLike): unknown {
  try {
    return error.stack; // a getter on a host object may throw
  } catch {
    return undefined;
  }
}
