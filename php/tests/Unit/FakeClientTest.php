<?php

declare(strict_types=1);

namespace Svc\Tests\Unit;

use PHPUnit\Framework\AssertionFailedError;
use PHPUnit\Framework\TestCase;
use Svc\Client;
use Svc\Enum\Priority;
use Svc\Enum\Severity;
use Svc\Testing\FakeClient;
use Svc\Testing\Report;

/** Svc\Testing\FakeClient: records what the real client would send, assertion helpers that can fail. */
final class FakeClientTest extends TestCase
{
    public function testItIsAClientThatRecordsThePayloadTheRealClientWouldSend(): void
    {
        $fake = FakeClient::create(['environment' => 'test', 'defaultTags' => ['shop'], 'projectRoot' => \dirname(__DIR__, 2)]);
        self::assertInstanceOf(Client::class, $fake);
        $error = new \RuntimeException('card declined');
        $fake->majorHigh('Checkout failed', $error, 'payments');
        $line = __LINE__ - 2;
        [$report] = $fake->reports();
        self::assertSame('Checkout failed', $report->title());
        self::assertSame([Severity::Major, Priority::High], [$report->severity(), $report->priority()]);
        self::assertSame(['shop', 'env:test', 'payments'], $report->tags());
        self::assertStringStartsWith('RuntimeException: card declined', (string) $report->description());
        self::assertSame(['tests/Unit/FakeClientTest.php', $line], [$report->fileName(), $report->lineNumber()]);
        self::assertSame($error, $report->exception());
        self::assertTrue($report->is(Severity::Major, 'high'));
        self::assertTrue($report->is('MAJOR'));
        self::assertFalse($report->is(Severity::Major, Priority::Low));
        self::assertTrue($report->hasTag('payments'));
    }

    public function testCredentialsAddressAndSamplingAreIgnoredButBeforeSendApplies(): void
    {
        $fake = FakeClient::create([
            'apiKey' => 'svc_pub_real', 'enabled' => false, 'sampleRate' => 0.0, 'encryptionPublicKey' => 'not a key',
            'beforeSend' => static fn (array $payload): ?array => str_contains($payload['title'], 'secret') ? null : ['title' => strtoupper($payload['title'])] + $payload,
        ]);
        $fake->minor('visible');
        $fake->minor('a secret');
        self::assertSame(['VISIBLE'], array_map(static fn (Report $r): string => $r->title(), $fake->reports()));
        $result = $fake->flush();
        self::assertSame([1, 1], [$result->sent, $result->dropped['beforeSend']]);
    }

    public function testAssertionsPassOnMatchesWithEnumsOrStringsAndFailOtherwise(): void
    {
        $fake = FakeClient::create();
        $fake->assertNothingReported();
        $fake->critical('Database down');
        $fake->minorLow('Slow query', 'took 2 s');
        $fake->minorLow('Slow query');
        $fake->assertReported('Database down');
        $fake->assertReported('Database down', Severity::Critical, Priority::Medium, times: 1);
        $fake->assertReported('Slow query', 'minor', 'low', times: 2);
        $fake->assertReported(static fn (Report $r): bool => $r->description() === 'took 2 s');
        $fake->assertReported(severity: Severity::Minor);
        $fake->assertNotReported('Disk full');
        $fake->assertNotReported('Database down', Severity::Minor);
        $fake->assertReportedCount(3);
        self::assertCount(2, $fake->reported(priority: Priority::Low));

        $failures = [
            'missing title' => static fn () => $fake->assertReported('Disk full'),
            'wrong severity' => static fn () => $fake->assertReported('Database down', Severity::Major),
            'wrong count' => static fn () => $fake->assertReported('Slow query', times: 1),
            'present' => static fn () => $fake->assertNotReported('Database down'),
            'not empty' => static fn () => $fake->assertNothingReported(),
            'count' => static fn () => $fake->assertReportedCount(2),
            'never flushed' => static fn () => $fake->assertFlushed(),
        ];
        foreach ($failures as $name => $assertion) {
            try {
                $assertion();
                self::fail("{$name}: the assertion passed");
            } catch (AssertionFailedError $failure) {
                self::assertStringStartsWith('Expected ', $failure->getMessage(), $name);
            }
        }
        try {
            $fake->assertReported('Disk full');
            self::fail('assertReported passed for a title never reported');
        } catch (AssertionFailedError $failure) {
            self::assertStringContainsString('Expected a report titled "Disk full"; reported: critical/medium "Database down", minor/low "Slow query"', $failure->getMessage());
        }
    }

    public function testAssertFlushedNeedsAFlushAfterTheLastReport(): void
    {
        $fake = FakeClient::create();
        $fake->major('One');
        $fake->flush();
        $fake->assertFlushed(1);
        $fake->major('Two');
        self::assertCount(1, $fake->pending());
        try {
            $fake->assertFlushed();
            self::fail('a report waits, yet assertFlushed passed');
        } catch (AssertionFailedError $failure) {
            self::assertStringContainsString('1 report(s) wait for the next one', $failure->getMessage());
        }
        $fake->flush();
        $fake->assertFlushed(2);
        $fake->reset();
        $fake->assertNothingReported();
    }
}
