// The core client: the wiring of options, the send side (./pipeline.ts), the queue, the reporting
// calls (./calls.ts), their build (./build.ts, ./enqueue.ts), the 16 methods and `flush()`. Platform neutral;
// src/index.node.ts and src/index.browser.ts plug in location capture and shutdown hooks.
import {
  type Priority,
  REPORTING_METHODS,
  type ReportingMethods,
  type Severity,
} from '../generated/methods.gen.ts';
import { pickCredentials } from './auth.ts';
import { createBuilder } from './build.ts';
import { createCalls } from './calls.ts';
import { type Bucket, count, emptyResult } from './counters.ts';
import { createDebug } from './debug.ts';
import { createEnqueue } from './enqueue.ts';
import { BAD_SERVICE_URL, CLIENT_CREATED, FLUSH_RESULT } from './messages.ts';
import { read, resolveOptions, type SvcOptions } from './options.ts';
import { createPipeline } from './pipeline.ts';
import type { Platform } from './port.ts';
import { createQueue } from './queue.ts';
import { resolveServiceUrl } from './service-url.ts';
import type { ClientDeps, FlushResult } from './types.ts';

/** The 16 reporting methods plus `flush()`. */
export interface SvcClient extends ReportingMethods {
  /**
   * Sends everything queued now and resolves once the queue is drained (or after `timeoutMs`),
   * with the outcome counts since the previous flush result. Never rejects.
   */
  flush(opts?: { timeoutMs?: number }): Promise<FlushResult>;
}

export function createCoreClient(
  platform: Platform,
  options: SvcOptions,
  injected?: ClientDeps,
): SvcClient {
  const deps: ClientDeps = {
    fetch: platform.fetch,
    ...(injected as ClientDeps), // any value: null or a number adds nothing, a string index keys
  };
  const config = resolveOptions(options, platform.optionDefaults);
  // `deps` is a copy (spread above): its fields are plain data, read without a guard.
  config.uploadedSourceMaps = deps.uploadedSourceMaps;
  const option = (key: string) => read(options, key);
  const apiKey = option('apiKey');
  const signingSecret = option('signingSecret');
  // Redacted from every line (the strings among them, by the lazy formatting chunk).
  const debug = createDebug(deps.logger ?? console, config.debug, [apiKey, signingSecret]);
  let result = emptyResult();
  const tally = (bucket: Bucket) => count(result, bucket);
  const credentials = pickCredentials(
    apiKey,
    option('keyId'),
    signingSecret,
    config.enabled ? debug.warn : () => {},
  );
  const [url, given] = resolveServiceUrl(deps.serviceUrl, platform.envServiceUrl?.());
  if (config.enabled && !url && !config.logLocally) debug.warn(BAD_SERVICE_URL, given);
  const pipeline = createPipeline(
    config,
    deps,
    debug,
    credentials,
    option('encryptionPublicKey'),
    option('encryptionKeyId'),
    url,
  );
  const active = config.enabled && pipeline.ready;
  debug.log(CLIENT_CREATED, { active, auth: credentials?.kind, serviceUrl: url, options });

  const build = () => calls.drain(builder.build);
  const queue = createQueue(
    config,
    pipeline,
    tally,
    // Browser unload: what the calls of this task took is built, reports still waiting for their
    // location go without it, then the queue.
    (active &&
      platform.attach?.({
        drain: () => client.flush(),
        unload() {
          build();
          builder.release();
          queue.unload();
        },
        pipeline,
      })) ||
      (() => {}),
    platform.unref,
  );
  const builder = createBuilder(
    config,
    platform,
    queue,
    createEnqueue(config, queue, debug, tally, active),
    debug,
  );
  const calls = createCalls(
    config,
    platform,
    queue,
    tally,
    debug,
    deps.random ?? Math.random,
    platform.schedule?.(build) ?? (() => queueMicrotask(build)),
  );

  // An empty object first, then 17 properties: V8 keeps it in fast mode (a literal with `flush`
  // followed by 16 keyed stores turns it into a dictionary, a slower lookup on every call).
  const client = {} as SvcClient;
  // The reporting methods of the generated table: each name sets its severity and priority.
  const methods = client as unknown as Record<string, unknown>;
  for (const [severity, row] of Object.entries(REPORTING_METHODS))
    for (const [priority, names] of Object.entries(row))
      for (const name of names)
        methods[name] = (title: unknown, description?: unknown, tags?: unknown) => {
          if (active)
            calls.report(severity as Severity, priority as Priority, title, description, tags);
        };
  client.flush = async (opts?: { timeoutMs?: number }): Promise<FlushResult> => {
    build();
    await queue.flush(read(opts, 'timeoutMs'));
    const flushed = result;
    result = emptyResult();
    debug.log(FLUSH_RESULT, flushed);
    await debug.idle(); // debug and logLocally lines are written before flush() resolves
    return flushed;
  };
  return client;
}
