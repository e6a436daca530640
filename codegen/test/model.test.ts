import { describe, expect, it } from 'vitest';
import { inspect } from '../src/inspect/index.ts';
import {
  checkClient,
  checkErrorMapping,
  checkIntegrations,
  checkMethodTable,
  integrationsOf,
  type MethodTable,
  ModelError,
  validateModel,
} from '../src/model.ts';
import { loadSpec } from './helpers.ts';

async function table(): Promise<MethodTable> {
  return inspect(await loadSpec()).methods;
}

describe('model validation', () => {
  it('accepts the real spec: 16 methods, 4 severities x (3 priorities + bare name)', async () => {
    const model = inspect(await loadSpec());
    expect(() => validateModel(model)).not.toThrow();
    expect(model.methods.methods).toHaveLength(16);
    expect(checkMethodTable(model.methods)).toEqual([]);
  });

  it('rejects 15 methods', async () => {
    const t = await table();
    t.methods = t.methods.filter((m) => m.name !== 'minorHigh');
    const problems = checkMethodTable(t);
    expect(problems).toContain(
      'expected exactly 16 reporting methods (4 severities x (3 priorities + the bare default-priority name)), got 15',
    );
    expect(problems).toContain('cell minor x high has 0 methods, expected 1');
  });

  it('rejects 17 methods', async () => {
    const t = await table();
    t.methods.push({
      name: 'minorUrgent',
      severity: 'minor',
      priority: 'high',
      isDefaultAlias: false,
    });
    const problems = checkMethodTable(t);
    expect(problems.some((p) => p.includes('got 17'))).toBe(true);
    expect(problems).toContain('cell minor x high has 2 methods, expected 1');
  });

  it('rejects duplicate names', async () => {
    const t = await table();
    const i = t.methods.findIndex((m) => m.name === 'majorLow');
    t.methods[i] = { ...t.methods[i]!, name: 'majorHigh', priority: 'high' };
    expect(checkMethodTable(t)).toContain('duplicate method name "majorHigh"');
  });

  it('rejects severities and priorities outside the spec enums', async () => {
    const t = await table();
    t.methods[0] = { name: 'fatalLow', severity: 'fatal', priority: 'low', isDefaultAlias: false };
    t.methods[1] = { ...t.methods[1]!, priority: 'urgent' };
    const problems = checkMethodTable(t);
    expect(problems).toContain('method "fatalLow": severity "fatal" is not in the Severity enum');
    expect(problems.some((p) => p.includes('priority "urgent" is not in the Priority enum'))).toBe(
      true,
    );
  });

  it('rejects a default priority outside the enum and a bare name with another priority', async () => {
    const t = await table();
    t.defaultPriority = 'normal';
    const problems = checkMethodTable(t);
    expect(problems).toContain('default priority "normal" is not one of low, medium, high');
    expect(problems).toContain('bare method "critical" must have the default priority "normal"');
  });

  it('rejects an error mapping without a network row or with an unknown carry', async () => {
    const mapping = inspect(await loadSpec()).errors;
    mapping.rules = mapping.rules.filter((r) => !r.match.some((m) => m.kind === 'network'));
    mapping.rules[0]!.carries = ['message', 'stack' as never];
    const problems = checkErrorMapping(mapping);
    expect(problems).toContain('no error rule matches network failures');
    expect(problems).toContain('SvcAuthError: unknown carry "stack"');
  });

  it('rejects PHP exception names that are invalid or do not pair one-to-one with the JavaScript ones', async () => {
    const mapping = inspect(await loadSpec()).errors;
    mapping.rules[0]!.phpClassName = 'AuthError';
    mapping.rules[1]!.phpClassName = 'RateLimitException';
    const problems = checkErrorMapping(mapping);
    expect(problems).toContain(
      'SvcAuthError: PHP class "AuthError" must match /^[A-Z][A-Za-z]*Exception$/',
    );
    expect(problems).toContain(
      'SvcRateLimitError and SvcValidationError need one PHP class each (got RateLimitException, RateLimitException)',
    );
  });

  it('rejects bad options and behaviour values', async () => {
    const model = inspect(await loadSpec());
    const byName = (name: string) => model.options.find((o) => o.name === name)!;
    byName('maxQueueSize').default = 0;
    byName('debug').default = 'yes';
    byName('timeoutMs').maximum = undefined;
    byName('release').sdks = ['ruby' as never];
    model.options.push({ ...byName('debug'), default: false });
    model.client.backoffCapMs = 100;
    expect(checkClient(model)).toEqual([
      'option release: sdks must be a non-empty subset of js, php',
      'option maxQueueSize: default 0 is not a valid integer',
      'option timeoutMs: minimum and maximum are required exactly for numbers',
      'option debug: default "yes" is not a valid boolean',
      'duplicate option "debug"',
      'backoffCapMs is below backoffBaseMs',
    ]);
  });

  it('keeps secrets out of browser code and gives every variable one meaning', async () => {
    const model = inspect(await loadSpec());
    const byName = (name: string) => model.options.find((o) => o.name === name)!;
    byName('signingSecret').public = true;
    byName('enabled').public = true;
    byName('debug').env = 'SERVICE_URL';
    expect(checkClient(model)).toEqual([
      'option signingSecret: a secret key cannot be public',
      'option enabled: public needs an env',
      'duplicate env "SERVICE_URL"',
    ]);
  });

  it('accepts the integrations table and looks each failure up in the method table', async () => {
    const model = inspect(await loadSpec());
    expect(checkIntegrations(model)).toEqual([]);
    const byKind = Object.fromEntries(model.integrations.failures.map((f) => [f.kind, f]));
    expect(byKind['server-error']).toMatchObject({ method: 'majorMedium', side: 'server' });
    expect(byKind['uncaught-exception']).toMatchObject({ method: 'criticalHigh' });
    expect(byKind['client-error']).toEqual({
      kind: 'client-error',
      description: expect.any(String),
      sdks: ['js', 'php'],
      report: false,
    });
    expect(model.integrations.frameworks).toContainEqual({
      name: 'vite',
      sdk: 'js',
      publicPrefix: 'VITE_',
    });
    expect(model.integrations.frameworks).toContainEqual({ name: 'laravel', sdk: 'php' });
    expect(byKind['log-record']!.levels).toContainEqual({
      level: 'error',
      severity: 'major',
      priority: 'medium',
      method: 'majorMedium',
    });
  });

  it('gives each SDK its own rows: the same row to both where both see the kind', async () => {
    const model = inspect(await loadSpec());
    const kinds = (sdk: 'js' | 'php') =>
      integrationsOf(model.integrations, sdk).failures.map((f) => f.kind);
    expect(kinds('js')).toEqual([
      'server-error',
      'uncaught-exception',
      'unhandled-rejection',
      'browser-error',
      'browser-rejection',
      'error-boundary',
      'background-error',
      'client-error',
    ]);
    expect(kinds('php')).toEqual([
      'server-error',
      'uncaught-exception',
      'client-error',
      'command-error',
      'job-error',
      'log-record',
    ]);
    expect(integrationsOf(model.integrations, 'php').frameworks.map((f) => f.name)).toEqual([
      'laravel',
      'symfony',
      'monolog',
    ]);
  });

  it('rejects a row without SDKs, levels beside a severity or for the JS kit, and levels outside the table', async () => {
    const model = inspect(await loadSpec());
    const byKind = Object.fromEntries(model.integrations.failures.map((f) => [f.kind, f]));
    byKind['job-error']!.sdks = [];
    const log = byKind['log-record']!;
    log.severity = 'major';
    log.sdks = ['js', 'php'];
    log.levels![1] = { level: 'emergency', severity: 'blocker', priority: 'high' };
    model.integrations.frameworks.push({ name: 'slim', sdk: 'go' as 'php' });
    expect(checkIntegrations(model)).toEqual([
      'framework slim: sdk must be one of js, php',
      'failure job-error: sdks must be a non-empty subset of js, php',
      'failure log-record: give levels or a severity and priority, not both',
      'failure log-record: levels are for the PHP SDK only (the JS kit reads one method)',
      'failure log-record: level "emergency" must be a unique lower-case name',
      'failure log-record: level emergency: blocker x high is no cell of the method table',
    ]);
  });

  it('rejects failure kinds outside the method table, unknown placeholders and bad prefixes', async () => {
    const model = inspect(await loadSpec());
    const [first, second] = model.integrations.failures;
    first!.method = undefined;
    first!.severity = 'blocker';
    second!.place = '{where}';
    second!.tags = ['server'];
    model.integrations.frameworks.push({ name: 'vite', sdk: 'js', publicPrefix: 'vite' });
    expect(checkIntegrations(model)).toEqual([
      'duplicate framework "vite"',
      'framework vite: public prefix must be upper-case, ending in _',
      'failure server-error: blocker x medium is no cell of the method table',
      'failure uncaught-exception: the tags must name the framework ({framework})',
      'failure uncaught-exception: unknown placeholder {where} in "{where}"',
    ]);
  });

  it('rejects an alert delivery without a path, a prefix that is not a prefix, or odd statuses', async () => {
    const model = inspect(await loadSpec());
    model.service.alertDelivery = {
      signedPath: 'svc/alert',
      secretPrefix: 'Hook',
      retriedStatuses: [429, 200],
      retriedFrom: 500,
    };
    const error = (() => {
      try {
        validateModel(model);
      } catch (e) {
        return e;
      }
    })();
    expect((error as ModelError).problems).toEqual([
      'alert signedPath "svc/alert" must be a printable path starting with /',
      'alert secretPrefix "Hook" must be lower-case and end with _',
      'alert retried statuses must be integers in 400-599',
    ]);
  });

  it('throws one ModelError listing every problem', async () => {
    const model = inspect(await loadSpec(), { server: 'ftp://nope/' });
    model.methods.methods.pop();
    model.limits.sdkDescriptionMax = 70000;
    const error = (() => {
      try {
        validateModel(model);
      } catch (e) {
        return e;
      }
    })();
    expect(error).toBeInstanceOf(ModelError);
    expect((error as ModelError).problems).toHaveLength(4 /* count, cell, clamp, url */);
  });
});
