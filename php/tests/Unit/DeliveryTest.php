<?php

declare(strict_types=1);

namespace Svc\Tests\Unit;

use PHPUnit\Framework\TestCase;
use Svc\Exception\RateLimitException;
use Svc\Exception\ServerException;
use Svc\Internal\HttpResult;
use Svc\Tests\Support\FakeTransport;
use Svc\Tests\Support\Recorder;

/** Retries (contract 7), backoff (8.4), what is not retried (a service that is not there), the flush deadline, and the visible warnings. */
final class DeliveryTest extends TestCase
{
    private const BASE = ['apiKey' => Recorder::API_KEY, 'captureLocation' => false];

    public function testRetriesOn5xxWithExponentialBackoffAndEqualJitterThenGivesUp(): void
    {
        $recorder = new Recorder();
        $recorder->randoms = [0.0, 1.0, 0.5];
        $transport = new FakeTransport([HttpResult::answer(503, '{"message":"busy"}')]);
        $client = $recorder->client(self::BASE, $transport);
        $client->major('Always 503');
        $result = $client->flush();
        self::assertSame(1, $result->failed);
        self::assertCount(4, $transport->requests, 'maxRetries 3: one attempt and three retries');
        // Steps of 500, 1000, 2000 ms: half fixed, half random.
        self::assertSame([250, 1000, 1500], $recorder->sleeps);
        self::assertInstanceOf(ServerException::class, $result->errors[0]);
        self::assertSame(503, $result->errors[0]->status);
    }

    public function testRetryAfterIsUsedVerbatimAndANonNumericOneIsIgnored(): void
    {
        $recorder = new Recorder();
        $transport = new FakeTransport([
            HttpResult::answer(429, '{"message":"slow down"}', '2'),
            HttpResult::answer(429, '{}', 'soon'),
            HttpResult::answer(201, '{}'),
        ]);
        $client = $recorder->client(self::BASE, $transport);
        $client->major('Rate limited');
        self::assertSame(1, $client->flush()->sent);
        self::assertSame([2000, 750], $recorder->sleeps);
    }

    public function testTheBackoffIsCappedAt30Seconds(): void
    {
        $recorder = new Recorder();
        $recorder->randoms = array_fill(0, 10, 1.0);
        // A budget long enough for every sleep (the exit budget is timeoutMs).
        $client = $recorder->client(self::BASE + ['maxRetries' => 8, 'timeoutMs' => 86_400_000], new FakeTransport([HttpResult::failure(HttpResult::NETWORK, 'reset')]));
        $client->major('Capped');
        $client->flush();
        self::assertSame([500, 1000, 2000, 4000, 8000, 16000, 30000, 30000], $recorder->sleeps);
    }

    /** @return iterable<string, array{int}> */
    public static function notRetried(): iterable
    {
        foreach ([400, 401, 403, 404, 413, 422] as $status) {
            yield (string) $status => [$status];
        }
    }

    /** @dataProvider notRetried */
    public function testOther4xxAreNeverRetried(int $status): void
    {
        $recorder = new Recorder();
        $transport = new FakeTransport([HttpResult::answer($status, '{}')]);
        $client = $recorder->client(self::BASE, $transport);
        $client->major('Client error');
        self::assertSame(1, $client->flush()->failed);
        self::assertCount(1, $transport->requests);
        self::assertSame([], $recorder->sleeps);
    }

    public function testADroppedConnectionIsRetriedAndCarriesTheCause(): void
    {
        $recorder = new Recorder();
        $transport = new FakeTransport([
            HttpResult::failure(HttpResult::NETWORK, 'Recv failure: Connection reset by peer'),
            HttpResult::answer(200, '{"deduplicated":true}'),
        ]);
        $client = $recorder->client(self::BASE + ['debug' => true], $transport);
        $client->major('Flaky network');
        self::assertSame(1, $client->flush()->deduplicated);
        self::assertCount(2, $transport->requests);
        self::assertStringContainsString(
            'attempt 1 failed, will retry: ServerException: network error (caused by RuntimeException: Recv failure: Connection reset by peer)',
            $recorder->text(),
        );
        self::assertSame(5000, $transport->requests[0]['timeoutMs']);
    }

    public function testATimeoutIsNotRetriedTheReportWaitsAndCarriesTheCause(): void
    {
        $recorder = new Recorder();
        $transport = new FakeTransport([HttpResult::failure(HttpResult::TIMEOUT, 'Operation timed out after 5001 milliseconds')], $recorder);
        $client = $recorder->client(self::BASE + ['debug' => true], $transport);
        $client->major('Hung');
        $result = $client->flush();
        self::assertSame([0, 0, 1], [$result->sent, $result->failed, $result->pending]);
        self::assertSame('request timed out after 5000 ms', $result->unavailable?->getMessage());
        self::assertCount(1, $transport->requests);
        self::assertSame([], $recorder->sleeps);
    }

    public function testARefusedConnectionCostsNoRetriesAndNoSleepsAndEveryReportWaits(): void
    {
        $recorder = new Recorder();
        $transport = new FakeTransport([HttpResult::failure(HttpResult::CONNECT, 'Failed to connect to 127.0.0.1 port 9: Connection refused')]);
        $client = $recorder->client(self::BASE, $transport, 'http://127.0.0.1:9');
        foreach (range(1, 5) as $i) {
            $client->major("Refused {$i}");
        }
        $result = $client->flush();
        self::assertSame([0, 5], [$result->failed, $result->pending]);
        self::assertCount(1, $transport->requests, 'one attempt: the service counts as unreachable after it');
        self::assertSame([], $recorder->sleeps);
        self::assertSame([], $recorder->linesOf('warning'), 'told once, when the reports are given up');
    }

    public function testAReportThatOutlasts503sRetriesFailsAndTheRestWaitForTheProbe(): void
    {
        $recorder = new Recorder();
        $recorder->randoms = [0.0, 0.0, 0.0];
        $transport = new FakeTransport([HttpResult::answer(503, '{}')]);
        $client = $recorder->client(self::BASE, $transport);
        foreach (range(1, 3) as $i) {
            $client->major("Down {$i}");
        }
        $result = $client->flush();
        self::assertSame([1, 2], [$result->failed, $result->pending]);
        self::assertCount(4, $transport->requests, 'the first report: one attempt and three retries');
        self::assertSame([250, 500, 1000], $recorder->sleeps);
    }

    public function testAFlushWithATimeoutKeepsWhatItCouldNotFinishQueued(): void
    {
        $recorder = new Recorder();
        $transport = new FakeTransport([HttpResult::answer(429, '{}', '5'), HttpResult::answer(201, '{}')]);
        $client = $recorder->client(self::BASE, $transport);
        $client->major('Deadline 1');
        $client->major('Deadline 2');
        $result = $client->flush(1000);
        self::assertSame([0, 2], [$result->sent + $result->failed, $result->pending]);
        self::assertCount(1, $transport->requests);
        self::assertSame(0, $client->flush()->sent, 'not retried before its Retry-After');
        $recorder->clock += 5000;
        $result = $client->flush();
        self::assertSame(2, $result->sent);
        self::assertSame(['Deadline 1', 'Deadline 1', 'Deadline 2'], array_column($transport->payloads(), 'title'));
    }

    public function testFailuresTheUserMustFixWarnOncePerKindWithTheAddressAndTheFix(): void
    {
        $recorder = new Recorder();
        $transport = new FakeTransport([
            HttpResult::answer(401, '{"message":"Invalid or missing project API key."}'),
            HttpResult::answer(401, '{"message":"Invalid or missing project API key."}'),
            HttpResult::answer(404, 'Not Found'),
        ]);
        $client = $recorder->client(self::BASE + ['maxRetries' => 0], $transport, 'https://errors.invalid');
        foreach (range(1, 3) as $i) {
            $client->major("Broken {$i}");
        }
        self::assertSame(3, $client->flush()->failed);
        $warnings = $recorder->linesOf('warning');
        self::assertCount(2, $warnings);
        self::assertStringContainsString('https://errors.invalid rejected the credentials (401): check SERVICE_API_KEY', $warnings[0]);
        self::assertStringContainsString('https://errors.invalid answered 404 for /api/v1/tasks', $warnings[1]);
        self::assertSame([], $recorder->linesOf('debug'), 'no debug lines with debug off');
    }

    public function testARateLimitErrorCarriesRetryAfterWhenRetriesRunOut(): void
    {
        $client = (new Recorder())->client(self::BASE + ['maxRetries' => 0], new FakeTransport([HttpResult::answer(429, '{"message":"Too many requests."}', '3')]));
        $client->major('Limited');
        $error = $client->flush()->errors[0];
        self::assertInstanceOf(RateLimitException::class, $error);
        self::assertSame(3, $error->retryAfter);
        self::assertSame('Too many requests.', $error->getMessage());
    }
}
