<?php

declare(strict_types=1);

namespace Svc\Testing;

use Svc\Enum\Priority;
use Svc\Enum\Severity;
use Svc\Integration\Levels;

/**
 * One report a {@see FakeClient} recorded: the payload the client would have sent (after titles,
 * tags, clamps, location and `beforeSend`) and the description it was given.
 */
final class Report
{
    /** @param array<string, mixed> $payload */
    public function __construct(
        public readonly array $payload,
        private readonly mixed $given,
    ) {
    }

    public function title(): string
    {
        return $this->payload['title'];
    }

    public function severity(): Severity
    {
        return Severity::from($this->payload['severity']);
    }

    public function priority(): Priority
    {
        return Priority::from($this->payload['priority']);
    }

    public function description(): ?string
    {
        return $this->payload['description'] ?? null;
    }

    /** @return list<string> */
    public function tags(): array
    {
        return $this->payload['tags'];
    }

    public function fileName(): ?string
    {
        return $this->payload['file_name'] ?? null;
    }

    public function lineNumber(): ?int
    {
        return $this->payload['line_number'] ?? null;
    }

    /** The Throwable the report was made with, if its description was one. */
    public function exception(): ?\Throwable
    {
        return $this->given instanceof \Throwable ? $this->given : null;
    }

    /** Whether this report has that severity (and that priority, when given): enum cases or strings. */
    public function is(Severity|string $severity, Priority|string|null $priority = null): bool
    {
        return Levels::severity($severity) === $this->payload['severity']
            && ($priority === null || Levels::priority($priority) === $this->payload['priority']);
    }

    public function hasTag(string $tag): bool
    {
        return \in_array($tag, $this->payload['tags'], true);
    }
}
