// Emits the PHP exceptions of contract 7 (PHP column) into php/src/Exception/: the `SvcException`
// base with the one factory from the status (`fromResponse`) and from a network failure, and one
// subclass per class of the mapping with what it carries (`fieldErrors`, `retryAfter`, the cause as
// `getPrevious()`) and its retry rule. Same rows, same order as the TypeScript errors: first match wins.
import type { Carry, ErrorMapping, Model, StatusMatcher } from '../../model.ts';
import { classes, type ClassInfo } from '../errors/classes.ts';
import { label } from '../errors/matchers.ts';
import { finishPhp, type PhpMethod, type PhpParameter } from './printer.ts';

export const PHP_EXCEPTION_DIR = 'php/src/Exception';
const NAMESPACE = 'Svc\\Exception';

/** What a carried value looks like in PHP: property, constructor parameter, value from a response. */
const CARRY: Partial<
  Record<Carry, { type: string; doc: string; param: PhpParameter; fromResponse: string }>
> = {
  fieldErrors: {
    type: 'array',
    doc: 'Failing field name to its messages (the `errors` map of a 422); empty when absent.',
    param: { name: 'fieldErrors', type: 'array', default: '[]' },
    fromResponse: 'self::fieldErrorsOf($body)',
  },
  retryAfter: {
    type: '?int',
    doc: 'Seconds to wait, from `Retry-After` (integer seconds; absent or non-numeric gives null).',
    param: { name: 'retryAfter', type: '?int', default: 'null' },
    fromResponse: 'Retry::parseRetryAfter($retryAfter)',
  },
};

/** PHP condition on `$status` (null for a network failure). */
export function phpCondition(m: StatusMatcher): string {
  if (m.kind === 'network') return '$status === null';
  if (m.kind === 'status') return `$status === ${m.status}`;
  return `$status >= ${m.min} && $status <= ${m.max}`;
}

const phpName = (mapping: ErrorMapping, jsName: string) =>
  mapping.rules.find((r) => r.className === jsName)!.phpClassName;

function factory(mapping: ErrorMapping, infos: ClassInfo[]): PhpMethod[] {
  const network = infos.find((i) =>
    i.rules.some((r) => r.match.some((m) => m.kind === 'network')),
  )!;
  const lines = mapping.rules.flatMap((r) => {
    const fromResponse = r.match.filter((m) => m.kind !== 'network');
    if (fromResponse.length === 0) return [];
    const args = [
      '$message',
      '$status',
      ...r.carries.filter((c) => CARRY[c]).map((c) => CARRY[c]!.fromResponse),
    ];
    const test = fromResponse
      .map((m) =>
        fromResponse.length > 1 && m.kind === 'range' ? `(${phpCondition(m)})` : phpCondition(m),
      )
      .join(' || ');
    return [`if (${test}) {\n    return new ${r.phpClassName}(${args.join(', ')});\n}`];
  });
  return [
    {
      name: 'fromResponse',
      visibility: 'public',
      isStatic: true,
      parameters: [
        { name: 'status', type: 'int' },
        { name: 'body', type: 'mixed' },
        { name: 'retryAfter', type: '?string', default: 'null' },
      ],
      returnType: 'self',
      docs: [
        'The exception for a failed HTTP answer: the class by status (first matching row of the mapping),',
        'the message from the JSON `message` key, else `HTTP {status}`.',
        '',
        '@param mixed $body The decoded JSON body (null when absent or not JSON).',
        '@param string|null $retryAfter The `Retry-After` header, if any.',
      ],
      body: [
        "$message = self::messageOf($body) ?? 'HTTP ' . $status;",
        ...lines,
        `return new ${phpName(mapping, network.name)}($message, $status);`,
      ],
    },
    {
      name: 'fromNetworkFailure',
      visibility: 'public',
      isStatic: true,
      parameters: [
        { name: 'message', type: 'string' },
        { name: 'cause', type: '?\\Throwable', default: 'null' },
      ],
      returnType: 'self',
      docs: [
        'The exception for a network failure or a timeout (no HTTP answer); `cause` becomes `getPrevious()`.',
      ],
      body: [`return new ${phpName(mapping, network.name)}($message, null, cause: $cause);`],
    },
    {
      name: 'messageOf',
      visibility: 'private',
      isStatic: true,
      parameters: [{ name: 'body', type: 'mixed' }],
      returnType: '?string',
      body: [
        "$message = \\is_array($body) ? ($body['message'] ?? null) : null;",
        "return \\is_string($message) && $message !== '' ? $message : null;",
      ],
    },
    {
      name: 'fieldErrorsOf',
      visibility: 'protected',
      isStatic: true,
      parameters: [{ name: 'body', type: 'mixed' }],
      returnType: 'array',
      docs: ['@return array<string, list<string>>'],
      body: [
        "$errors = \\is_array($body) ? ($body['errors'] ?? null) : null;",
        '$out = [];',
        'if (!\\is_array($errors)) {\n    return $out;\n}',
        'foreach ($errors as $field => $messages) {\n    foreach (\\is_array($messages) ? $messages : [$messages] as $m) {\n        $out[(string) $field][] = \\is_scalar($m) ? (string) $m : (string) json_encode($m);\n    }\n}',
        'return $out;',
      ],
    },
  ];
}

function baseFile(mapping: ErrorMapping, infos: ClassInfo[]) {
  const { base } = mapping;
  return finishPhp(`${PHP_EXCEPTION_DIR}/${base.phpClassName}.gen.php`, {
    namespace: NAMESPACE,
    uses: ['Svc\\Generated\\Retry'],
    declaration: {
      kind: 'class',
      name: base.phpClassName,
      extends: '\\RuntimeException',
      docs: [base.description],
      properties: [
        {
          name: 'status',
          type: '?int',
          readonly: true,
          docs: ['HTTP status; null for network failures and timeouts.'],
        },
        {
          name: 'retryable',
          type: 'bool',
          readonly: true,
          docs: ['Whether the SDK retries the request that failed this way.'],
        },
      ],
      methods: [
        {
          name: '__construct',
          visibility: 'public',
          parameters: [
            { name: 'message', type: 'string' },
            { name: 'status', type: '?int', default: 'null' },
            { name: 'retryable', type: 'bool', default: 'false' },
            { name: 'cause', type: '?\\Throwable', default: 'null' },
          ],
          returnType: '',
          body: [
            'parent::__construct($message, 0, $cause);',
            '$this->status = $status;',
            '$this->retryable = $retryable;',
          ],
        },
        ...factory(mapping, infos),
      ],
    },
  });
}

function subclassFile(mapping: ErrorMapping, info: ClassInfo) {
  const name = phpName(mapping, info.name);
  const extra = info.carries.filter((c) => CARRY[c]);
  const retried = new Set(info.rules.map((r) => r.retried));
  const retryable = retried.size === 1 ? String([...retried][0]) : 'Retry::isRetryable($status)';
  const statuses = info.rules.flatMap((r) =>
    r.match.map((m) => `${label(m)} (${r.retried ? 'retried' : 'not retried'})`),
  );
  const carries = info.carries.map((c) => (c === 'cause' ? 'cause (`getPrevious()`)' : c));
  return finishPhp(`${PHP_EXCEPTION_DIR}/${name}.gen.php`, {
    namespace: NAMESPACE,
    uses: retryable.startsWith('Retry::') ? ['Svc\\Generated\\Retry'] : [],
    declaration: {
      kind: 'class',
      name,
      extends: mapping.base.phpClassName,
      docs: [
        ...new Set(info.rules.map((r) => r.description)),
        `Mapped from: ${statuses.join(', ')}. Carries: ${carries.join(', ')}.`,
      ],
      properties: extra.map((c) => ({
        name: c,
        type: CARRY[c]!.type,
        readonly: true,
        docs:
          c === 'fieldErrors'
            ? [CARRY[c]!.doc, '', '@var array<string, list<string>>']
            : [CARRY[c]!.doc],
      })),
      methods: [
        {
          name: '__construct',
          visibility: 'public',
          parameters: [
            { name: 'message', type: 'string' },
            { name: 'status', type: '?int', default: 'null' },
            ...extra.map((c) => CARRY[c]!.param),
            { name: 'cause', type: '?\\Throwable', default: 'null' },
          ],
          returnType: '',
          docs: extra.includes('fieldErrors')
            ? ['@param array<string, list<string>> $fieldErrors']
            : undefined,
          body: [
            `parent::__construct($message, $status, ${retryable}, $cause);`,
            ...extra.map((c) => `$this->${c} = $${c};`),
          ],
        },
      ],
    },
  });
}

export function emitPhpErrors(model: Model): { path: string; text: string }[] {
  const infos = classes(model.errors.rules);
  return [baseFile(model.errors, infos), ...infos.map((info) => subclassFile(model.errors, info))];
}
