<?php

declare(strict_types=1);

namespace Svc\Testing;

use Svc\Client;
use Svc\Enum\Priority;
use Svc\Enum\Severity;
use Svc\FlushResult;
use Svc\Integration\Levels;
use Svc\Internal\Deps;
use Svc\Internal\HttpResult;
use Svc\Internal\Transport;

/**
 * A client for your own tests: it records every report (with the payload the real client would
 * send: titles, tags, clamps, location, `beforeSend`) and sends nothing. It is a `Svc\Client`, so
 * it goes wherever one is injected; `Svc::fake()` puts one in Laravel's container.
 *
 * ```php
 * $svc = FakeClient::create(['environment' => 'test']);
 * (new Checkout($svc))->run($cart);
 * $svc->assertReported('Checkout failed', severity: Severity::Major);
 * ```
 *
 * Credentials, the service address and encryption are ignored; `enabled` and `sampleRate` are
 * forced on (a fake must see every report); every other option applies as in production.
 * Assertions fail through PHPUnit when it is loaded, else with an `AssertionError`.
 */
final class FakeClient extends Client
{
    private const IGNORED = ['apiKey', 'api_key', 'keyId', 'key_id', 'signingSecret', 'signing_secret', 'encryptionPublicKey',
        'encryption_public_key', 'encryptionKeyId', 'encryption_key_id', 'enabled', 'sampleRate', 'sample_rate', 'logLocally', 'log_locally'];

    /** @var list<Report> */
    private array $reports = [];

    private int $flushes = 0;

    /** How many of the reports the last flush took. */
    private int $flushed = 0;

    /**
     * A fake client with these options (credentials and the address are not needed).
     *
     * @param array<string, mixed> $options
     */
    public static function create(mixed $options = [], mixed $serviceUrl = null, ?Deps $deps = null): static
    {
        $options = array_diff_key(\is_array($options) ? $options : [], array_flip(self::IGNORED));
        $accept = new class () implements Transport {
            public function post(string $url, array $headers, string $body, int $timeoutMs): HttpResult
            {
                return HttpResult::answer(201, '{"deduplicated":false}');
            }
        };
        $deps = new Deps(
            transport: $accept,
            logger: $deps?->logger,
            env: static fn (string $name): ?string => null,
            entryScript: $deps?->entryScript,
            shutdownHook: false,
            outageNotes: false,
        );
        return parent::create($options + ['apiKey' => 'svc_pub_' . str_repeat('0', 48)], 'http://127.0.0.1:9', $deps);
    }

    protected function enqueue(array $payload, mixed $description): void
    {
        $this->reports[] = new Report($payload, $description);
        parent::enqueue($payload, $description);
    }

    /** Counts the flush (see `assertFlushed()`); the reports count as sent. */
    public function flush(mixed $timeoutMs = null): FlushResult
    {
        $this->flushes++;
        $this->flushed = \count($this->reports);
        return parent::flush($timeoutMs);
    }

    /** @return list<Report> the reports made since the last flush (what would still wait in the queue) */
    public function pending(): array
    {
        return \array_slice($this->reports, $this->flushed);
    }

    /** @return list<Report> every report recorded, oldest first */
    public function reports(): array
    {
        return $this->reports;
    }

    /**
     * The reports matching: an exact title, or a callable given each Report; with `$severity` /
     * `$priority` (enum cases or strings), of that severity and priority too.
     *
     * @param string|callable(Report): bool|null $match
     * @return list<Report>
     */
    public function reported(string|callable|null $match = null, Severity|string|null $severity = null, Priority|string|null $priority = null): array
    {
        return array_values(array_filter($this->reports, static fn (Report $report): bool => match (true) {
            $severity !== null && !$report->is($severity, $priority) => false,
            $severity === null && $priority !== null && Levels::priority($priority) !== $report->payload['priority'] => false,
            $match === null => true,
            \is_string($match) => $report->title() === $match,
            default => (bool) $match($report),
        }));
    }

    /**
     * Fails unless a matching report was made (exactly `$times` of them, when given).
     *
     * @param string|callable(Report): bool|null $match
     */
    public function assertReported(string|callable|null $match = null, Severity|string|null $severity = null, Priority|string|null $priority = null, ?int $times = null): void
    {
        $count = \count($this->reported($match, $severity, $priority));
        $what = $this->describe($match, $severity, $priority);
        self::check(
            $times === null ? $count > 0 : $count === $times,
            $times === null ? "Expected a report {$what}; {$this->summary()}" : "Expected {$times} report(s) {$what}, got {$count}; {$this->summary()}",
        );
    }

    /** @param string|callable(Report): bool $match */
    public function assertNotReported(string|callable $match, Severity|string|null $severity = null, Priority|string|null $priority = null): void
    {
        $count = \count($this->reported($match, $severity, $priority));
        self::check($count === 0, "Expected no report {$this->describe($match, $severity, $priority)}, got {$count}");
    }

    public function assertNothingReported(): void
    {
        self::check($this->reports === [], "Expected no report; {$this->summary()}");
    }

    public function assertReportedCount(int $count): void
    {
        self::check(\count($this->reports) === $count, "Expected {$count} report(s); {$this->summary()}");
    }

    /**
     * Fails unless `flush()` ran after the last report (so nothing waits in the queue), and, with
     * `$times`, ran exactly that often: what the integrations do after each request or job.
     */
    public function assertFlushed(?int $times = null): void
    {
        $pending = \count($this->pending());
        self::check(
            $this->flushes > 0 && $pending === 0 && ($times === null || $this->flushes === $times),
            'Expected flush() to run' . ($times === null ? '' : " {$times} time(s)") . " after the last report; it ran {$this->flushes} time(s)"
                . ($pending > 0 ? " and {$pending} report(s) wait for the next one" : ''),
        );
    }

    /** Forgets every report and flush. */
    public function reset(): void
    {
        parent::flush();
        $this->reports = [];
        $this->flushes = 0;
        $this->flushed = 0;
    }

    private function describe(string|callable|null $match, Severity|string|null $severity, Priority|string|null $priority): string
    {
        $parts = [];
        if (\is_string($match)) {
            $parts[] = "titled \"{$match}\"";
        } elseif ($match !== null) {
            $parts[] = 'matching the callback';
        }
        if ($severity !== null) {
            $parts[] = 'of severity ' . (Levels::severity($severity) ?? var_export($severity, true));
        }
        if ($priority !== null) {
            $parts[] = 'of priority ' . (Levels::priority($priority) ?? var_export($priority, true));
        }
        return $parts === [] ? '(any)' : implode(', ', $parts);
    }

    private function summary(): string
    {
        if ($this->reports === []) {
            return 'nothing was reported';
        }
        $lines = array_map(static fn (Report $r): string => "{$r->payload['severity']}/{$r->payload['priority']} \"{$r->title()}\"", $this->reports);
        return 'reported: ' . implode(', ', $lines);
    }

    private static function check(bool $ok, string $message): void
    {
        if (class_exists(\PHPUnit\Framework\Assert::class)) {
            \PHPUnit\Framework\Assert::assertTrue($ok, $message);
            return;
        }
        if (!$ok) {
            throw new \AssertionError($message);
        }
    }
}
