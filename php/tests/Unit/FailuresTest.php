<?php

declare(strict_types=1);

namespace Svc\Tests\Unit;

use PHPUnit\Framework\TestCase;
use Svc\Generated\Integrations;
use Svc\Generated\Methods;
use Svc\Integration\Failures;

/**
 * The failure table as the PHP integrations read it (generated `Integrations::FAILURES`, the
 * `php` rows of the spec's `x-svc-integrations`): each kind's method, title place and tags filled
 * as the TypeScript kit fills them, a log record's by its PSR-3 level, and a kind that makes no
 * card. (Which exceptions of a request are the visitor's mistake: the framework tests.)
 */
final class FailuresTest extends TestCase
{
    public function testAServerErrorIsTheTableRowFilledWithTheRequest(): void
    {
        $report = Failures::report('server-error', 'laravel', new \RuntimeException('order 42 has no lines'), ['method' => 'post', 'route' => '/orders/{id}']);
        $row = Integrations::FAILURES['server-error'];
        self::assertSame([$row['severity'], $row['priority'], $row['method']], [$report->severity, $report->priority, $report->method()]);
        self::assertSame(['major', 'medium', 'majorMedium'], [$report->severity, $report->priority, $report->method()], 'the same as every TypeScript integration');
        self::assertSame('RuntimeException: order <n> has no lines (POST /orders/{id})', $report->title);
        self::assertSame(['laravel', 'server', 'server-error', 'method:POST'], $report->tags);
    }

    public function testEveryPhpKindHasItsPlaceAndTagsAndATagWithoutItsValueIsLeftOut(): void
    {
        $error = new \DomainException('card 4242 declined');
        $titles = [
            'command-error' => [['command' => 'orders:sync'], 'DomainException: card <n> declined (console orders:sync)', ['symfony', 'server', 'command-error']],
            'job-error' => [['job' => 'App\Jobs\Charge'], 'DomainException: card <n> declined (queue App\Jobs\Charge)', ['symfony', 'server', 'job-error']],
            'uncaught-exception' => [[], 'DomainException: card <n> declined (uncaught exception)', ['symfony', 'server', 'uncaught-exception']],
            'server-error' => [['route' => '/pay'], 'DomainException: card <n> declined (/pay)', ['symfony', 'server', 'server-error']],
        ];
        foreach ($titles as $kind => [$where, $title, $tags]) {
            $report = Failures::report($kind, 'symfony', $error, $where);
            self::assertSame([$title, $tags], [$report->title, $report->tags], $kind);
            self::assertContains([$report->severity, $report->priority], array_values(Methods::TABLE), $kind);
        }
        self::assertSame('console', Failures::place('command-error', ['command' => null]));
    }

    public function testAKindThatMakesNoCardGivesNoReport(): void
    {
        self::assertFalse(Failures::isReported('client-error'));
        self::assertNull(Failures::report('client-error', 'laravel', new \RuntimeException('not found')));
        self::assertNull(Failures::report('no-such-kind', 'laravel', new \RuntimeException('x')));
    }

    public function testALogRecordTakesItsLevelsSeverityAndPriorityAndItsChannelAsPlace(): void
    {
        $levels = Integrations::FAILURES['log-record']['levels'];
        self::assertSame(['emergency', 'alert', 'critical', 'error', 'warning', 'notice', 'info', 'debug'], array_keys($levels));
        foreach ($levels as $level => $row) {
            $report = Failures::report('log-record', 'monolog', 'Payment for order 42 failed', ['channel' => 'payments'], strtoupper($level));
            self::assertSame([$row['severity'], $row['priority'], $row['method']], [$report->severity, $report->priority, $report->method()], $level);
            self::assertSame([$row['severity'], $row['priority']], Methods::TABLE[$report->method()], $level);
        }
        $report = Failures::report('log-record', 'monolog', 'Payment for order 42 failed', ['channel' => 'payments'], 'nonsense');
        self::assertSame([$levels['error']['severity'], $levels['error']['priority']], [$report->severity, $report->priority], 'an unknown level counts as error');
        self::assertSame('Payment for order <n> failed (payments log)', $report->title);
        self::assertSame(['monolog', 'server', 'log-record', 'channel:payments'], $report->tags);
    }

    public function testAConfiguredSeverityOrPriorityOverridesTheTables(): void
    {
        $report = Failures::report('server-error', 'laravel', new \RuntimeException('x'), ['method' => 'GET', 'route' => '/']);
        self::assertSame(['critical', 'medium'], Methods::TABLE[$report->method('critical')]);
        self::assertSame(['major', 'high'], Methods::TABLE[$report->method(null, 'high')]);
    }
}
