<?php

declare(strict_types=1);

namespace Svc\Tests\BlackBox;

use PHPUnit\Framework\TestCase;
use Svc\Client;
use Svc\Exception\ServerException;
use Svc\Internal\Credentials;
use Svc\Tests\Support\Recorder;
use Svc\Tests\Support\RecordingServer;

/**
 * The real curl transport against a recording HTTP server (a PHP child process on 127.0.0.1:0):
 * keep-alive on one TCP connection, retries with fresh signatures over the same bytes, what is not
 * retried, timeouts, refused and dropped connections. Sleeps are injected and recorded (no real waiting).
 */
final class RecordingServerTest extends TestCase
{
    private ?RecordingServer $server = null;

    protected function tearDown(): void
    {
        $this->server?->stop();
    }

    private function client(array $replies, array $options, Recorder $recorder): Client
    {
        $this->server = new RecordingServer($replies);
        $recorder->clock = microtime(true) * 1000;
        return Client::create($options + ['captureLocation' => false], $this->server->url, $recorder->deps());
    }

    public function testSequentialReportsShareOneKeepAliveConnection(): void
    {
        $client = $this->client([], ['apiKey' => Recorder::API_KEY], new Recorder());
        foreach (range(1, 5) as $i) {
            $client->major("Keep-alive {$i}");
        }
        self::assertSame(5, $client->flush()->sent);
        $client->minor('Keep-alive after the first flush');
        self::assertSame(1, $client->flush()->sent);
        self::assertCount(6, $this->server->requests());
        self::assertSame(1, $this->server->connections(), 'one TCP connection for every report');
        $request = $this->server->requests()[0];
        self::assertSame(['POST', '/api/v1/tasks'], [$request['method'], $request['path']]);
        self::assertSame('application/json', $request['headers']['content-type']);
        self::assertSame('true', $request['headers']['x-svc-hide-response']);
        self::assertArrayNotHasKey('expect', $request['headers']);
        self::assertStringStartsWith('svc-php/', $request['headers']['user-agent']);
    }

    public function testRetriesOn429And5xxReSignEveryAttemptOverTheSameBytes(): void
    {
        $recorder = new Recorder();
        $client = $this->client(
            [
                ['status' => 503, 'body' => '{"message":"busy"}'],
                ['status' => 429, 'body' => '{"message":"slow down"}', 'headers' => ['Retry-After' => '2']],
                ['status' => 201, 'body' => '{"deduplicated":false}'],
            ],
            ['keyId' => 'svck_test123', 'signingSecret' => 'svc_sec_0123456789abcdef'],
            $recorder,
        );
        $client->majorHigh('Retried', 'three attempts');
        self::assertSame(1, $client->flush()->sent);
        $requests = $this->server->requests();
        self::assertCount(3, $requests);
        self::assertSame(1, \count(array_unique(array_column($requests, 'body'))), 'the same bytes every time');
        foreach ($requests as $request) {
            $expected = Credentials::sign('svck_test123', 'svc_sec_0123456789abcdef', $request['body'], (int) $request['headers']['x-svc-timestamp'], 'POST');
            self::assertSame($expected['X-Svc-Signature'], $request['headers']['x-svc-signature']);
        }
        self::assertSame(2000, $recorder->sleeps[1], 'Retry-After verbatim');
        self::assertLessThan((int) $requests[2]['headers']['x-svc-timestamp'], (int) $requests[0]['headers']['x-svc-timestamp']);
    }

    public function testAClientErrorIsNotRetried(): void
    {
        $client = $this->client([['status' => 400, 'body' => '{"message":"bad"}']], ['apiKey' => Recorder::API_KEY], new Recorder());
        $client->major('Bad request');
        self::assertSame(1, $client->flush()->failed);
        self::assertCount(1, $this->server->requests());
    }

    public function testADroppedConnectionIsRetriedATimeoutIsNotTheServiceCountsAsUnreachable(): void
    {
        $recorder = new Recorder();
        $client = $this->client([['drop' => true], ['status' => 200, 'body' => '{"deduplicated":true}']], ['apiKey' => Recorder::API_KEY, 'timeoutMs' => 400, 'debug' => true], $recorder);
        $client->major('Flaky');
        self::assertSame(1, $client->flush()->deduplicated, $recorder->text());
        self::assertCount(2, $this->server->requests());
        self::assertStringContainsString('attempt 1 failed, will retry: ServerException: network error', $recorder->text());

        $this->server->stop();
        $recorder = new Recorder();
        $client = $this->client([['status' => 201, 'body' => '{}', 'delayMs' => 550]], ['apiKey' => Recorder::API_KEY, 'timeoutMs' => 400, 'debug' => true], $recorder);
        $client->major('Slow');
        $client->major('Behind it');
        $result = $client->flush();
        self::assertSame([0, 2], [$result->sent + $result->failed, $result->pending]);
        self::assertSame('request timed out after 400 ms', $result->unavailable?->getMessage());
        self::assertCount(1, $this->server->requests(), 'not retried: no answer in time means the service counts as unreachable');
        self::assertSame([], $recorder->sleeps);
    }

    public function testAWorkerThatRunsOnDeliversWhatWaitedAtTheFirstProbeAfterTheServiceIsBack(): void
    {
        $recorder = new Recorder();
        // The first request is answered after the attempt gave up (the service is hung), the rest at once.
        $client = $this->client([['status' => 201, 'body' => '{}', 'delayMs' => 600], ['status' => 201, 'body' => '{}']], ['apiKey' => Recorder::API_KEY, 'timeoutMs' => 400], $recorder);
        $client->major('Job 1');
        self::assertSame(1, $client->flush(400)->pending);
        $client->major('Job 2');
        self::assertSame(2, $client->flush(400)->pending, 'no attempt before the probe time');
        self::assertCount(1, $this->server->requests());
        $recorder->clock += \Svc\Internal\Reachability::PROBE_INTERVAL_MS; // the worker runs on
        $result = $client->flush(400);
        self::assertSame([2, 0], [$result->sent, $result->pending], 'the probe is answered: what waited goes');
        self::assertSame(['Job 1', 'Job 1', 'Job 2'], array_map(static fn (array $r): string => json_decode($r['body'], true)['title'], $this->server->requests()));
        self::assertSame([], $recorder->linesOf('warning'), 'nothing was lost: nothing to tell');
    }

    private static function shutdown(Client $client): void
    {
        (fn () => $this->flushAtShutdown())->call($client);
    }

    public function testAClosedPortCostsNoRetriesAndIsToldOnceAtExit(): void
    {
        $this->server = new RecordingServer();
        $url = $this->server->url;
        $this->server->stop();
        $this->server = null;
        $recorder = new Recorder();
        $client = Client::create(['apiKey' => Recorder::API_KEY, 'captureLocation' => false], $url, $recorder->deps());
        $client->major('Refused 1');
        $client->major('Refused 2');
        $result = $client->flush();
        self::assertSame([0, 2], [$result->failed, $result->pending]);
        self::assertInstanceOf(ServerException::class, $result->unavailable);
        self::assertSame([], $recorder->sleeps, 'a refused connection gets no backoff');
        self::assertSame([], $recorder->linesOf('warning'));
        self::shutdown($client);
        $warnings = $recorder->linesOf('warning');
        self::assertCount(1, $warnings);
        self::assertMatchesRegularExpression('~^\[svc\] 2 report\(s\) not delivered to ' . preg_quote($url, '~') . ': cannot connect \(Failed to connect to 127\.0\.0\.1 port \d+.*\); \d+ ms spent trying; given up so the process can exit\. Is the service running\? Otherwise set SERVICE_URL~', $warnings[0]);
    }

    public function testAnUnresolvableHostIsToldOnceAtExitNamingTheHost(): void
    {
        $recorder = new Recorder();
        $client = Client::create(['apiKey' => Recorder::API_KEY, 'captureLocation' => false], 'http://svc.invalid', $recorder->deps());
        $client->major('Nowhere');
        self::assertSame(1, $client->flush()->pending);
        self::shutdown($client);
        $warnings = $recorder->linesOf('warning');
        self::assertCount(1, $warnings);
        self::assertStringContainsString('1 report(s) not delivered to http://svc.invalid: cannot resolve svc.invalid;', $warnings[0]);
        self::assertStringContainsString('Set SERVICE_URL', $warnings[0]);
    }
}
