// Emits runtime/src/generated/options.gen.ts from `x-svc-options` (contract 8.5) and `x-svc-client`
// (8.4): the option fields with their documentation and defaults, the default values, the ranges
// of numeric options, the environment variable of each option, and the tag-count guard. And
// runtime/src/generated/keys.gen.ts from `x-svc-keys` (2.5), a file of its own: the lazy debug
// chunk reads it, and a file shared with the start-up code would be loaded by every page. The runtime
// resolves options from these; `beforeSend` (a function) gets its signature in the runtime.
import { type InterfaceDeclarationStructure, StructureKind } from 'ts-morph';
import type { ClientOption, Model } from '../model.ts';
import {
  type Artifact,
  asConst,
  constant,
  createProject,
  doc,
  literal,
  printStatements,
} from './common.ts';

export const OPTIONS_PATH = 'runtime/src/generated/options.gen.ts';

const TYPES: Record<string, string> = {
  string: 'string',
  boolean: 'boolean',
  number: 'number',
  integer: 'number',
  'string[]': 'readonly string[]',
};

const show = (value: unknown) => (value === null ? 'undefined' : JSON.stringify(value));

function defaultDoc(option: ClientOption): string {
  if (option.defaultLabel !== undefined) return option.defaultLabel;
  if ('browserDefault' in option)
    return `${show(option.default)} in Node, ${show(option.browserDefault)} in browsers`;
  return show(option.default);
}

export function emitOptions(model: Model): Artifact {
  const js = model.options.filter((o) => o.sdks.includes('js'));
  const values = js.filter((o) => o.type !== 'function');
  const defaults = Object.fromEntries(
    values.filter((o) => o.default !== null).map((o) => [o.name, o.default]),
  );
  const browser = Object.fromEntries(
    values.filter((o) => 'browserDefault' in o).map((o) => [o.name, o.browserDefault]),
  );
  const ranges = Object.fromEntries(
    values
      .filter((o) => o.minimum !== undefined)
      .map((o) => [o.name, [o.minimum, o.maximum, o.type === 'integer']]),
  );
  const env = Object.fromEntries(js.filter((o) => o.env).map((o) => [o.name, o.env]));
  const publicOptions = js.filter((o) => o.public).map((o) => o.name);
  const fields: InterfaceDeclarationStructure = {
    kind: StructureKind.Interface,
    isExported: true,
    name: 'SvcContractOptions',
    docs: doc(
      'The options of contract 8.5 that hold values (names identical across SDKs). An invalid value',
      '(wrong type, or a number outside its range) falls back to the default.',
    ),
    properties: values.map((o) => ({
      name: o.name,
      type: TYPES[o.type]!,
      hasQuestionToken: true,
      docs: doc(o.description, `@default ${defaultDoc(o)}`),
    })),
  };
  const text = printStatements(createProject(), OPTIONS_PATH, [
    fields,
    constant('OPTION_DEFAULTS', asConst(defaults), [
      'Default of every option that has one (JavaScript SDK; browser differences in BROWSER_OPTION_DEFAULTS).',
    ]),
    constant('BROWSER_OPTION_DEFAULTS', asConst(browser), ['Defaults that differ in browsers.']),
    constant('OPTION_RANGES', asConst(ranges), [
      'Numeric options: `[minimum, maximum, whole]`, the inclusive range and whether the value is a',
      'whole number (floored).',
    ]),
    constant('OPTION_ENV', asConst(env), [
      'The environment variable a server integration reads each option from (contract 5.5).',
    ]),
    constant('PUBLIC_OPTIONS', asConst(publicOptions), [
      'The options browser code may hold; browser builds read them from their `OPTION_ENV` variable',
      "under the framework's public prefix (`VITE_SERVICE_API_KEY`).",
    ]),
    constant('SERVICE_URL_ENV', literal(model.client.serviceUrlEnv), [
      'The environment variable of the service address (a deployment setting beside the options).',
    ]),
    constant('MAX_TAGS', String(model.client.maxTags), [
      'Most tags kept per card (a guard against giant arrays; the contract sets no count).',
    ]),
  ]);
  return { path: OPTIONS_PATH, text };
}

export const KEYS_PATH = 'runtime/src/generated/keys.gen.ts';

export function emitKeys(model: Model): Artifact {
  const text = printStatements(createProject(), KEYS_PATH, [
    constant('KEY_SHAPES', asConst(model.keys), [
      'The key values of contract 2.5 by prefix; `secret` ones never leave the server.',
    ]),
  ]);
  return { path: KEYS_PATH, text };
}
