// Emits the card severity and priority of contract 1 as PHP string-backed enums into php/src/Enum/
// (`Svc\Enum\Severity`, `Svc\Enum\Priority`), cases in spec order. The SDK accepts a case wherever
// it takes a severity or priority (the Monolog handler, the framework configs, the test fake's
// assertions), beside the plain string. Data only: the conversion is hand-written in php/src.
import type { Model } from '../../model.ts';
import { finishPhp, type PhpEnumCase } from './printer.ts';

export const PHP_ENUM_DIR = 'php/src/Enum';
const NAMESPACE = 'Svc\\Enum';

/** `critical` -> `Critical`, `very-high` -> `VeryHigh`: a PHP case name from an enum value. */
export function caseName(value: string): string {
  const name = value
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((part) => part.charAt(0).toUpperCase() + part.slice(1))
    .join('');
  if (!/^[A-Za-z_]\w*$/.test(name)) throw new Error(`no PHP enum case name for "${value}"`);
  return name;
}

const cases = (values: string[]): PhpEnumCase[] =>
  values.map((value) => ({ name: caseName(value), value }));

export function emitPhpEnums(model: Model): { path: string; text: string }[] {
  const { severities, priorities, defaultPriority } = model.methods;
  const severity = finishPhp(`${PHP_ENUM_DIR}/Severity.gen.php`, {
    namespace: NAMESPACE,
    declaration: {
      kind: 'enum: string',
      name: 'Severity',
      docs: [
        'A card severity (contract 1), most severe first. Accepted beside its string value',
        "(`Severity::Major` or `'major'`) wherever the SDK takes a severity.",
      ],
      cases: cases(severities),
    },
  });
  const priority = finishPhp(`${PHP_ENUM_DIR}/Priority.gen.php`, {
    namespace: NAMESPACE,
    declaration: {
      kind: 'enum: string',
      name: 'Priority',
      docs: [
        'A card priority (contract 1), lowest first. Accepted beside its string value',
        "(`Priority::High` or `'high'`) wherever the SDK takes a priority.",
      ],
      cases: cases(priorities),
      constants: [
        {
          name: 'DEFAULT',
          value: `self::${caseName(defaultPriority)}`,
          docs: ['The priority of the bare severity methods (`critical()` and so on).'],
        },
      ],
    },
  });
  return [priority, severity];
}
