// Emits the PHP constants of the contract into php/src/Generated/: `Service` (the service address
// and its environment override, the endpoint path), `Limits` (field limits, the SDK clamps, the tag
// count guard), `Retry` (the retry rule of contract 7, `Retry-After` parsing, the 8.4 backoff values)
// and `Options` (the 8.5 options PHP reads: defaults, types, ranges, snake_case spellings, the
// environment variables). Values only, plus the two small rule functions the TypeScript side also emits.
import type { ClientOption, Model } from '../../model.ts';
import { label } from '../errors/matchers.ts';
import { phpCondition } from './errors.ts';
import { NAMESPACE, PHP_GENERATED_DIR } from './methods.ts';
import { finishPhp, type PhpConstant, phpLiteral, phpString } from './printer.ts';

const constant = (name: string, value: unknown, ...docs: string[]): PhpConstant => ({
  name,
  value: typeof value === 'string' ? phpString(value) : phpLiteral(value),
  docs: docs.length > 0 ? docs : undefined,
});

const snake = (name: string) => name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

function service(model: Model) {
  return finishPhp(`${PHP_GENERATED_DIR}/Service.gen.php`, {
    namespace: NAMESPACE,
    declaration: {
      kind: 'final class',
      name: 'Service',
      docs: ['Where reports go (contract 4): the service address and the one endpoint.'],
      constants: [
        constant(
          'URL',
          model.service.url,
          'The default service address (no trailing slash): `servers[0].url` of the spec.',
        ),
        constant(
          'URL_ENV',
          model.client.serviceUrlEnv,
          'Environment variable that overrides the service address (a deployment setting, not an option).',
        ),
        constant(
          'TASKS_PATH',
          model.service.tasksPath,
          'Path of the one ingestion endpoint; also the constant path covered by request signatures.',
        ),
      ],
    },
  });
}

function limits(model: Model) {
  const l = model.limits;
  return finishPhp(`${PHP_GENERATED_DIR}/Limits.gen.php`, {
    namespace: NAMESPACE,
    declaration: {
      kind: 'final class',
      name: 'Limits',
      docs: [
        'Field limits in characters (Unicode code points), except `LINE_NUMBER_MIN` and `LINE_NUMBER_MAX` (contract 2.1, 8.1). The SDK',
        'clamps `title` to `TITLE_MAX`, each tag to `TAG_MAX` and `description` to `SDK_DESCRIPTION_MAX`.',
      ],
      constants: [
        constant('TITLE_MAX', l.titleMax, '`title`.'),
        constant('TAG_MAX', l.tagMax, 'Each tag.'),
        constant(
          'DESCRIPTION_MAX',
          l.descriptionMax,
          '`description` at the service (longer gives 422).',
        ),
        constant(
          'SDK_DESCRIPTION_MAX',
          l.sdkDescriptionMax,
          '`description` as the SDK sends it (truncated).',
        ),
        constant('FILE_NAME_MAX', l.fileNameMax, '`file_name`.'),
        constant('LINE_NUMBER_MIN', l.lineNumberMin, 'Smallest `line_number`.'),
        constant(
          'LINE_NUMBER_MAX',
          l.lineNumberMax,
          'Largest `line_number` (a positive 32-bit integer).',
        ),
        constant(
          'UNTITLED_TITLE',
          model.untitledTitle,
          'Title of a report without title and without a non-empty description line.',
        ),
        constant(
          'MAX_TAGS',
          model.client.maxTags,
          'Most tags kept per card (a guard; the contract sets no count).',
        ),
      ],
    },
  });
}

function retry(model: Model) {
  const lines = model.errors.rules.flatMap((r) =>
    r.match.map(
      (m) =>
        `if (${phpCondition(m)}) {\n    return ${r.retried}; // ${label(m)}: ${r.phpClassName}\n}`,
    ),
  );
  return finishPhp(`${PHP_GENERATED_DIR}/Retry.gen.php`, {
    namespace: NAMESPACE,
    declaration: {
      kind: 'final class',
      name: 'Retry',
      docs: [
        'Which failures are retried (contract 7) and the backoff between attempts (contract 8.4).',
      ],
      constants: [
        constant(
          'BACKOFF_BASE_MS',
          model.client.backoffBaseMs,
          'Exponential backoff with equal jitter starts here (ms).',
        ),
        constant(
          'BACKOFF_CAP_MS',
          model.client.backoffCapMs,
          'And never waits longer (a numeric `Retry-After` is used verbatim instead).',
        ),
      ],
      methods: [
        {
          name: 'isRetryable',
          visibility: 'public',
          isStatic: true,
          parameters: [{ name: 'status', type: '?int' }],
          returnType: 'bool',
          docs: [
            'The retry rule: whether a failure with this HTTP status is retried (null: network failure or timeout).',
          ],
          body: [...lines, 'return false;'],
        },
        {
          name: 'parseRetryAfter',
          visibility: 'public',
          isStatic: true,
          parameters: [{ name: 'value', type: '?string' }],
          returnType: '?int',
          docs: ['`Retry-After` as integer seconds; empty, absent or non-numeric gives null.'],
          body: [
            "$text = trim($value ?? '');",
            "return preg_match('/^\\d+$/', $text) === 1 ? (int) $text : null;",
          ],
        },
      ],
    },
  });
}

const PHPDOC_TYPES: Record<ClientOption['type'], string> = {
  string: 'string',
  boolean: 'bool',
  number: 'float|int',
  integer: 'int',
  'string[]': 'list<string>',
  function: 'callable(array<string, mixed>): (array<string, mixed>|null)',
};

function defaultText(o: ClientOption): string {
  return o.defaultLabel ?? (o.default === null ? 'none' : JSON.stringify(o.default));
}

function options(model: Model) {
  const php = model.options.filter((o) => o.sdks.includes('php'));
  const others = model.options.filter((o) => !o.sdks.includes('php')).map((o) => o.name);
  const floats = new Set(php.filter((o) => o.type === 'number').map((o) => o.name));
  const keys = php.flatMap((o) =>
    [...new Set([o.name, snake(o.name)])].map((k) => {
      const type = PHPDOC_TYPES[o.type];
      return `    ${k}?: ${type.startsWith('callable') ? `(${type})` : type}|null,`;
    }),
  );
  return finishPhp(`${PHP_GENERATED_DIR}/Options.gen.php`, {
    namespace: NAMESPACE,
    declaration: {
      kind: 'final class',
      name: 'Options',
      docs: [
        'The client options of contract 8.5 that the PHP SDK reads. Every name is also accepted in snake_case.',
        'A value of the wrong type, or a number outside its range, falls back to the default.',
        '',
        ...php.map(
          (o) =>
            `- \`${o.name}\` (${PHPDOC_TYPES[o.type]}, @default ${defaultText(o)}): ${o.description}`,
        ),
        '',
        '@phpstan-type SvcOptions array{',
        ...keys,
        '}',
      ],
      constants: [
        {
          name: 'DEFAULTS',
          value: phpLiteral(Object.fromEntries(php.map((o) => [o.name, o.default])), floats),
          docs: ['Every option and its default (null: none).'],
        },
        {
          name: 'TYPES',
          value: phpLiteral(Object.fromEntries(php.map((o) => [o.name, o.type]))),
          docs: [
            'Value type of each option: string, boolean, number, integer, string[] or function.',
          ],
        },
        {
          name: 'RANGES',
          value: phpLiteral(
            Object.fromEntries(
              php
                .filter((o) => o.minimum !== undefined)
                .map((o) => [o.name, [o.minimum, o.maximum]]),
            ),
            floats,
          ),
          docs: ['[minimum, maximum] of each numeric option.'],
        },
        {
          name: 'SNAKE_CASE',
          value: phpLiteral(
            Object.fromEntries(
              php.filter((o) => snake(o.name) !== o.name).map((o) => [snake(o.name), o.name]),
            ),
          ),
          docs: ['snake_case spelling => option name.'],
        },
        {
          name: 'ENV',
          value: phpLiteral(
            Object.fromEntries(php.filter((o) => o.env).map((o) => [o.name, o.env])),
          ),
          docs: ['Option => environment variable a server app reads it from (contract 5.5).'],
        },
        {
          name: 'OTHER_SDKS',
          value: phpLiteral(others),
          docs: [
            'Options of the other SDKs, not read by PHP (given anyway: ignored with a debug line).',
          ],
        },
      ],
    },
  });
}

function keys(model: Model) {
  const idPrefixes = model.keys.filter((key) => key.name.endsWith('Id')).map((key) => key.prefix);
  return finishPhp(`${PHP_GENERATED_DIR}/Keys.gen.php`, {
    namespace: NAMESPACE,
    declaration: {
      kind: 'final class',
      name: 'Keys',
      docs: ['The key values of contract 2.5 by prefix (`x-svc-keys`).'],
      constants: [
        constant(
          'PREFIXES',
          model.keys.map((key) => key.prefix),
          'Every key prefix (debug output redacts values of these shapes).',
        ),
        constant('ID_PREFIXES', idPrefixes, 'Prefixes of public key ids (they keep 4 characters).'),
        constant(
          'SECRET_PREFIXES',
          model.keys.filter((key) => key.secret).map((key) => key.prefix),
          'Prefixes of values that never leave the server.',
        ),
      ],
    },
  });
}

export function emitPhpConstants(model: Model): { path: string; text: string }[] {
  return [service(model), limits(model), retry(model), options(model), keys(model)];
}
