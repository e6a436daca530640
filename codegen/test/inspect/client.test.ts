import { describe, expect, it } from 'vitest';
import { readClient, readOptions } from '../../src/inspect/client.ts';
import { loadSpec } from '../helpers.ts';

describe('client options and behaviour', () => {
  it('reads the 8.5 options in the contract order, with their defaults and ranges', async () => {
    const options = readOptions(await loadSpec());
    expect(options.map((o) => o.name)).toEqual([
      'apiKey',
      'keyId',
      'signingSecret',
      'encryptionPublicKey',
      'encryptionKeyId',
      'enabled',
      'environment',
      'release',
      'defaultTags',
      'sampleRate',
      'hideApiResponse',
      'captureLocation',
      'lineNumbers',
      'sourceMaps',
      'projectRoot',
      'maxQueueSize',
      'concurrency',
      'flushIntervalMs',
      'timeoutMs',
      'maxRetries',
      'beforeSend',
      'debug',
      'logLocally',
    ]);
    const byName = Object.fromEntries(options.map((o) => [o.name, o]));
    expect(byName.maxQueueSize).toMatchObject({ type: 'integer', default: 100, minimum: 1 });
    expect(byName.sampleRate).toMatchObject({ type: 'number', default: 1, minimum: 0, maximum: 1 });
    expect(byName.sourceMaps).toMatchObject({ default: true, browserDefault: false, sdks: ['js'] });
    expect(byName.projectRoot).toMatchObject({
      default: null,
      sdks: ['php'],
      defaultLabel: 'auto-detected',
    });
    expect(byName.keyId!.env).toBe('SERVICE_KEY_ID');
  });

  it('reads the 8.4 behaviour values', async () => {
    expect(readClient(await loadSpec())).toEqual({
      backoffBaseMs: 500,
      backoffCapMs: 30000,
      maxTags: 100,
      serviceUrlEnv: 'SERVICE_URL',
    });
  });

  it('requires a default on every option', () => {
    const doc = { 'x-svc-options': { options: [{ name: 'debug', type: 'boolean' }] } };
    expect(() => readOptions(doc)).toThrow('debug needs a default');
  });
});
