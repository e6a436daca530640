<?php

declare(strict_types=1);

namespace Svc\Integration;

use Svc\Enum\Priority;
use Svc\Enum\Severity;
use Svc\Generated\Methods;

/**
 * Severity and priority as the integrations take them: a generated enum case
 * (`Severity::Major`) or its string (`'major'`, any case), and the reporting method of a pair.
 * Also the PSR-3 level -> severity and priority table of the Monolog handler.
 *
 * @internal shared by the Laravel, Symfony and Monolog integrations and the test fake
 */
final class Levels
{
    /**
     * PSR-3 level => [severity, priority]. Emergencies and alerts are critical and urgent; an
     * error is major; a warning moderate; notices and below minor (info and debug of low priority).
     */
    public const PSR3 = [
        'emergency' => [Severity::Critical, Priority::High],
        'alert' => [Severity::Critical, Priority::High],
        'critical' => [Severity::Critical, Priority::Medium],
        'error' => [Severity::Major, Priority::Medium],
        'warning' => [Severity::Moderate, Priority::Medium],
        'notice' => [Severity::Minor, Priority::Medium],
        'info' => [Severity::Minor, Priority::Low],
        'debug' => [Severity::Minor, Priority::Low],
    ];

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

    /**
     * [severity, priority] strings of a PSR-3 level name (Monolog's level names included, any case);
     * an unknown level counts as `error`.
     *
     * @return array{string, string}
     */
    public static function ofPsr3(string $level): array
    {
        [$severity, $priority] = self::PSR3[strtolower($level)] ?? self::PSR3['error'];
        return [$severity->value, $priority->value];
    }
}
