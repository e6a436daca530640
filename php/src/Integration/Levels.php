<?php

declare(strict_types=1);

namespace Svc\Integration;

use Svc\Enum\Priority;
use Svc\Enum\Severity;
use Svc\Generated\Methods;

/**
 * Severity and priority as the integrations take them: a generated enum case
 * (`Severity::Major`) or its string (`'major'`, any case), and the reporting method of a pair.
 * (A log record's severity and priority by its PSR-3 level are the failure table's: `Failures`.)
 *
 * @internal shared by the Laravel, Symfony and Monolog integrations and the test fake
 */
final class Levels
{
    /** A severity string from an enum case or a string; null when it names none. */
    public static function severity(mixed $value): ?string
    {
        $value = $value instanceof Severity ? $value->value : (\is_string($value) ? strtolower(trim($value)) : null);
        return \in_array($value, Methods::SEVERITIES, true) ? $value : null;
    }

    /** A priority string from an enum case or a string; null when it names none. */
    public static function priority(mixed $value): ?string
    {
        $value = $value instanceof Priority ? $value->value : (\is_string($value) ? strtolower(trim($value)) : null);
        return \in_array($value, Methods::PRIORITIES, true) ? $value : null;
    }

    /** The reporting method of this severity and priority (`majorHigh`; `major` for the default priority). */
    public static function method(string $severity, string $priority): string
    {
        foreach (Methods::TABLE as $name => $pair) {
            if ($pair === [$severity, $priority]) {
                return $name;
            }
        }
        return $severity;
    }
}
