import type { Flags } from './args.ts';
import { runServe } from './serve.ts';

/** Placeholder until the runtime lands: serves on 127.0.0.1:8787. */
export async function runDemo(flags: Flags): Promise<void> {
  await runServe(flags);
}
