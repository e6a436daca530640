// Reads the client options of contract 8.5 (`x-svc-options`), the client behaviour values of 8.4
// (`x-svc-client`: backoff, tag count guard, the service-address variable) and the key shapes of
// 2.5 (`x-svc-keys`) into the plain model.
// Shape checks only; the rules live in model-client.ts.
import type { ClientBehaviour, ClientOption, KeyShape, OptionType, Sdk } from '../model.ts';
import { type Doc, isObject } from './document.ts';
import { num } from './limits.ts';

export function readOptions(doc: Doc): ClientOption[] {
  const raw = doc['x-svc-options'];
  if (!isObject(raw) || !Array.isArray(raw.options)) {
    throw new Error('x-svc-options with an options list is required');
  }
  return raw.options.map((entry: unknown) => {
    if (!isObject(entry)) throw new Error('x-svc-options: each option must be a mapping');
    if (!('default' in entry)) throw new Error(`x-svc-options: ${entry.name} needs a default`);
    const option: ClientOption = {
      name: String(entry.name),
      type: String(entry.type) as OptionType,
      default: entry.default,
      sdks: (Array.isArray(entry.sdks) ? entry.sdks : []).map(String) as Sdk[],
      description: String(entry.description ?? ''),
    };
    if (entry['default-label'] !== undefined) option.defaultLabel = String(entry['default-label']);
    if ('browser-default' in entry) option.browserDefault = entry['browser-default'];
    if (entry.minimum !== undefined) option.minimum = num(entry.minimum, `${option.name}.minimum`);
    if (entry.maximum !== undefined) option.maximum = num(entry.maximum, `${option.name}.maximum`);
    if (entry.env !== undefined) option.env = String(entry.env);
    if (entry.public === true) option.public = true;
    return option;
  });
}

export function readKeys(doc: Doc): KeyShape[] {
  const raw = doc['x-svc-keys'];
  if (!isObject(raw) || !Array.isArray(raw.keys))
    throw new Error('x-svc-keys with a keys list is required');
  return raw.keys.map((entry: unknown) => {
    if (!isObject(entry)) throw new Error('x-svc-keys: each key must be a mapping');
    return {
      name: String(entry.name),
      prefix: String(entry.prefix),
      secret: entry.secret === true,
    };
  });
}

export function readClient(doc: Doc): ClientBehaviour {
  const raw = doc['x-svc-client'];
  if (!isObject(raw)) throw new Error('x-svc-client is required');
  return {
    backoffBaseMs: num(raw.backoffBaseMs, 'x-svc-client.backoffBaseMs'),
    backoffCapMs: num(raw.backoffCapMs, 'x-svc-client.backoffCapMs'),
    maxTags: num(raw.maxTags, 'x-svc-client.maxTags'),
    serviceUrlEnv: String(raw.serviceUrlEnv ?? ''),
  };
}
