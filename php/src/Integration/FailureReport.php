<?php

declare(strict_types=1);

namespace Svc\Integration;

/**
 * What an integration sends for one failure (`Failures::report`): the severity and priority of
 * the failure table, the card title and the tags. `method()` gives the reporting method, with a
 * severity or priority the app configured instead of the table's (`svc.severity`, the Monolog
 * handler's `severity:`), as an integration's `method` option overrides it in TypeScript.
 *
 * @internal
 */
final class FailureReport
{
    /** @param list<string> $tags */
    public function __construct(
        public readonly string $severity,
        public readonly string $priority,
        private readonly string $method,
        public readonly string $title,
        public readonly array $tags,
    ) {
    }

    /** The reporting method of the table (`majorMedium`), or of the given severity and priority where set. */
    public function method(?string $severity = null, ?string $priority = null): string
    {
        return $severity === null && $priority === null ? $this->method : Levels::method($severity ?? $this->severity, $priority ?? $this->priority);
    }
}
