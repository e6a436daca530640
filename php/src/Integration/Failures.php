<?php

declare(strict_types=1);

namespace Svc\Integration;

use Svc\Generated\Integrations;

/**
 * One report per kind of failure, the same in every integration of every SDK: the reporting method,
 * the place in the card title and the tags come from the spec's failure table
 * (`x-svc-integrations`, generated `Svc\Generated\Integrations::FAILURES`, the rows the TypeScript
 * kit reads for the kinds both SDKs see); this class only fills its templates. An integration says
 * what failed and where: `Failures::report('server-error', 'laravel', $e, ['method' => 'GET',
 * 'route' => '/orders/{id}'])` gives `majorMedium`, `RuntimeException: order <n> missing (GET
 * /orders/{id})` and the tags `laravel`, `server`, `server-error`, `method:GET`.
 *
 * @internal shared by the Laravel, Symfony and Monolog integrations
 */
final class Failures
{
    /** Whether failures of `$kind` make a card (a framework's 4xx, `client-error`, makes none). */
    public static function isReported(string $kind): bool
    {
        return (Integrations::FAILURES[$kind]['report'] ?? false) === true;
    }

    /**
     * The place in the title of a `$kind` failure: `GET /orders/{id}`, `console app:sync`, `queue App\Jobs\Charge`.
     *
     * @param array<string, string|null> $where
     */
    public static function place(string $kind, array $where = []): string
    {
        return self::fill((string) (Integrations::FAILURES[$kind]['place'] ?? ''), self::values($where));
    }

    /**
     * The tags of a `$kind` failure in `$framework`; a tag whose value is unknown is left out.
     *
     * @param array<string, string|null> $where
     * @return list<string>
     */
    public static function tags(string $kind, string $framework, array $where = []): array
    {
        $values = ['framework' => $framework] + self::values($where);
        $tags = array_map(static fn (string $tag): string => self::fill($tag, $values), Integrations::FAILURES[$kind]['tags'] ?? []);
        return array_values(array_filter($tags, static fn (string $tag): bool => preg_match('/(^|:)$/', $tag) !== 1));
    }

    /**
     * What an integration sends for a `$kind` failure of `$error` (a Throwable, or a log message)
     * in `$framework`; null when the kind makes no card. `$where`: `method`, `route`, `command`,
     * `job`, `channel`; `$level`: a log record's PSR-3 level.
     *
     * @param array<string, string|null> $where
     */
    public static function report(string $kind, string $framework, \Throwable|string $error, array $where = [], ?string $level = null): ?FailureReport
    {
        if (!self::isReported($kind)) {
            return null;
        }
        $place = self::place($kind, $where);
        $how = self::how($kind, $level);
        return new FailureReport(
            (string) $how['severity'],
            (string) $how['priority'],
            (string) $how['method'],
            $error instanceof \Throwable ? Title::of($error, $place) : Title::ofMessage($error, $place),
            self::tags($kind, $framework, $where),
        );
    }

    /**
     * The row's severity, priority and method, or those of `$level` for a kind with levels (log
     * records: a PSR-3 level, any case; an unknown level counts as `error`).
     *
     * @return array<string, mixed>
     */
    private static function how(string $kind, ?string $level): array
    {
        $row = Integrations::FAILURES[$kind] ?? [];
        if (!isset($row['levels'])) {
            return $row;
        }
        return $row['levels'][strtolower((string) $level)] ?? $row['levels']['error'] ?? reset($row['levels']);
    }

    /**
     * @param array<string, string|null> $where
     * @return array<string, string>
     */
    private static function values(array $where): array
    {
        $values = array_map(static fn (mixed $value): string => \is_string($value) ? $value : '', $where);
        if (isset($values['method'])) {
            $values['method'] = strtoupper($values['method']);
        }
        return $values;
    }

    /**
     * A template with its `{name}` placeholders filled (missing values leave nothing), spaces collapsed.
     *
     * @param array<string, string> $values
     */
    private static function fill(string $template, array $values): string
    {
        $filled = preg_replace_callback('/\{(\w+)\}/', static fn (array $match): string => $values[$match[1]] ?? '', $template) ?? $template;
        return trim(preg_replace('/\s+/u', ' ', $filled) ?? $filled);
    }
}
