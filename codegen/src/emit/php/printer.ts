// Prints PHP source from small structures (the PHP counterpart of the ts-morph structures the
// TypeScript emitters build): one class, trait or final class per file, PSR-12 layout, 4-space
// indentation, docblocks from lines of text. Also: PHP literals for plain JSON-like data, and the
// fixed header every generated PHP file opens with. Deterministic: same structures, same bytes.
// Also string-backed enums (`enum Severity: string`), with their cases before the constants.
import { HEADER } from '../common.ts';

export interface PhpConstant {
  name: string;
  /** A PHP expression (see `phpLiteral`). */
  value: string;
  docs?: string[];
}

export interface PhpProperty {
  name: string;
  type: string;
  readonly?: boolean;
  docs?: string[];
}

export interface PhpParameter {
  name: string;
  type: string;
  /** A PHP expression. */
  default?: string;
  /** `mixed ...$name`: takes every further argument, positional or named. */
  variadic?: boolean;
}

export interface PhpMethod {
  name: string;
  visibility: 'public' | 'protected' | 'private';
  isStatic?: boolean;
  isAbstract?: boolean;
  parameters: PhpParameter[];
  returnType: string;
  /** Statements, one per line (a line may hold a whole block, with `\n` inside). */
  body?: string[];
  docs?: string[];
}

export interface PhpEnumCase {
  name: string;
  value: string;
  docs?: string[];
}

export interface PhpClass {
  kind: 'class' | 'final class' | 'trait' | 'enum: string';
  name: string;
  /** Enum cases (kind `enum: string` only), printed first. */
  cases?: PhpEnumCase[];
  extends?: string;
  docs: string[];
  constants?: PhpConstant[];
  properties?: PhpProperty[];
  methods?: PhpMethod[];
}

export interface PhpFile {
  namespace: string;
  uses?: string[];
  declaration: PhpClass;
}

const INDENT = '    ';

/** A docblock at `indent`; one-line form for a single short line. */
function docblock(lines: string[], indent: string): string {
  if (lines.length === 1 && lines[0]!.length < 100 - indent.length) {
    return `${indent}/** ${lines[0]} */\n`;
  }
  const body = lines.map((l) => (l ? `${indent} * ${l}` : `${indent} *`)).join('\n');
  return `${indent}/**\n${body}\n${indent} */\n`;
}

const indented = (text: string, indent: string) =>
  text
    .split('\n')
    .map((l) => (l ? indent + l : l))
    .join('\n');

function parameter(p: PhpParameter): string {
  if (p.variadic) return `${p.type} ...$${p.name}`;
  return `${p.type} $${p.name}${p.default === undefined ? '' : ` = ${p.default}`}`;
}

function method(m: PhpMethod): string {
  const modifiers = [m.isAbstract ? 'abstract' : '', m.visibility, m.isStatic ? 'static' : '']
    .filter(Boolean)
    .join(' ');
  const params = m.parameters.map(parameter);
  const returns = m.returnType ? `: ${m.returnType}` : '';
  const oneLine = `${modifiers} function ${m.name}(${params.join(', ')})${returns}`;
  const signature =
    oneLine.length + INDENT.length <= 120
      ? oneLine
      : `${modifiers} function ${m.name}(\n${params.map((p) => `${INDENT}${INDENT}${p},`).join('\n')}\n${INDENT})${returns}`;
  const doc = m.docs ? docblock(m.docs, INDENT) : '';
  if (m.isAbstract) return `${doc}${INDENT}${signature};\n`;
  const open = signature.includes('\n') ? ' {' : `\n${INDENT}{`;
  const body = (m.body ?? []).map((s) => indented(s, INDENT + INDENT)).join('\n');
  return `${doc}${INDENT}${signature}${open}\n${body}\n${INDENT}}\n`;
}

/** The file body (without the `<?php` header): namespace, imports, one declaration. */
export function printPhp(file: PhpFile): string {
  const c = file.declaration;
  const members: string[] = [];
  const cases = (c.cases ?? []).map((k) => {
    const doc = k.docs ? docblock(k.docs, INDENT) : '';
    return `${doc}${INDENT}case ${k.name} = ${phpString(k.value)};\n`;
  });
  if (cases.length) members.push(cases.join(''));
  for (const k of c.constants ?? []) {
    const doc = k.docs ? docblock(k.docs, INDENT) : '';
    members.push(
      `${doc}${INDENT}public const ${k.name} = ${indented(k.value, INDENT).trimStart()};\n`,
    );
  }
  for (const p of c.properties ?? []) {
    const doc = p.docs ? docblock(p.docs, INDENT) : '';
    members.push(`${doc}${INDENT}public ${p.readonly ? 'readonly ' : ''}${p.type} $${p.name};\n`);
  }
  for (const m of c.methods ?? []) members.push(method(m));
  const uses = (file.uses ?? []).map((u) => `use ${u};\n`).join('');
  const head =
    c.kind === 'enum: string'
      ? `enum ${c.name}: string`
      : `${c.kind} ${c.name}${c.extends ? ` extends ${c.extends}` : ''}`;
  return [
    `namespace ${file.namespace};\n`,
    ...(uses ? [uses] : []),
    `${docblock(c.docs, '')}${head}\n{\n${members.join('\n')}}\n`,
  ].join('\n');
}

/** Header + body: `<?php`, the fixed generated-file header, strict types. */
export function finishPhp(path: string, file: PhpFile): { path: string; text: string } {
  return { path, text: `<?php\n\n${HEADER}\n\ndeclare(strict_types=1);\n\n${printPhp(file)}` };
}

/** A single-quoted PHP string. */
export function phpString(value: string): string {
  return `'${value.replaceAll('\\', '\\\\').replaceAll("'", "\\'")}'`;
}

/**
 * A PHP literal for JSON-like data: short arrays, inline when short and flat, else one entry per
 * line. `floats` names map keys whose numbers are floats (`1` prints as `1.0`).
 */
export function phpLiteral(
  value: unknown,
  floats: ReadonlySet<string> = new Set(),
  key = '',
): string {
  if (value === null || value === undefined) return 'null';
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new Error(`no PHP literal for ${value}`);
    return floats.has(key) && Number.isInteger(value) ? `${value}.0` : String(value);
  }
  if (typeof value === 'string') return phpString(value);
  if (Array.isArray(value)) {
    return printArray(value.map((v) => phpLiteral(v, floats, key)));
  }
  if (typeof value === 'object') {
    return printArray(
      Object.entries(value).map(([k, v]) => `${phpString(k)} => ${phpLiteral(v, floats, k)}`),
    );
  }
  throw new Error(`no PHP literal for ${typeof value}`);
}

function printArray(items: string[]): string {
  const inline = `[${items.join(', ')}]`;
  if (inline.length <= 80 && !items.some((i) => i.includes('\n'))) return inline;
  return `[\n${items.map((i) => `${indented(i, INDENT)},`).join('\n')}\n]`;
}
