<?php

declare(strict_types=1);

namespace Svc\Tests\BlackBox;

use PHPUnit\Framework\TestCase;
use Svc\Client;
use Svc\Tests\Support\Recorder;
use Svc\Tests\Support\RecordingServer;
use Svc\Tests\Support\ReferenceService;

/**
 * 3xx answers: followed like `fetch` follows them for the TypeScript SDK (an http -> https move,
 * a moved path), as a POST of the same bytes, with one warning naming the address to set; a
 * redirect that cannot be followed (a loop, no Location) fails visibly and is not retried.
 * The redirecting server is a recording HTTP server; the target is the reference service.
 */
final class RedirectTest extends TestCase
{
    private ?RecordingServer $server = null;

    protected function tearDown(): void
    {
        $this->server?->stop();
    }

    /** @param list<array<string, mixed>> $replies */
    private function client(array $replies, array $options, Recorder $recorder): Client
    {
        $this->server = new RecordingServer($replies);
        $recorder->clock = microtime(true) * 1000;
        return Client::create($options + ['captureLocation' => false], $this->server->url, $recorder->deps());
    }

    /** @return iterable<string, array{int}> */
    public static function statuses(): iterable
    {
        foreach ([301, 302, 303, 307, 308] as $status) {
            yield (string) $status => [$status];
        }
    }

    /** @dataProvider statuses */
    public function testARedirectToTheServiceIsFollowedAsAPostAndWarnedOnce(int $status): void
    {
        $service = ReferenceService::get();
        $recorder = new Recorder();
        $client = $this->client(
            [['status' => $status, 'headers' => ['Location' => $service->url . '/api/v1/tasks']]],
            ['keyId' => $service->keys['keyId'], 'signingSecret' => $service->keys['signingSecret']],
            $recorder,
        );
        $client->major("Redirected {$status} one");
        $client->major("Redirected {$status} two");
        $result = $client->flush();
        self::assertSame([2, 0], [$result->sent, $result->failed]);
        self::assertNotNull($service->card("Redirected {$status} one"));
        self::assertNotNull($service->card("Redirected {$status} two"));
        self::assertSame(
            ["[svc] {$this->server->url} redirects to {$service->url}/api/v1/tasks: reports are delivered, each through an extra request; set SERVICE_URL to {$service->url}"],
            $recorder->linesOf('warning'),
        );
        self::assertSame(['POST', 'POST'], array_column($this->server->requests(), 'method'));
    }

    public function testABearerKeyIsNotSentToAnotherHostAfterARedirect(): void
    {
        $service = ReferenceService::get();
        $recorder = new Recorder();
        // 127.0.0.1 -> localhost is another host for curl (as for fetch): Authorization stays behind.
        $target = str_replace('127.0.0.1', 'localhost', $service->url);
        $client = $this->client([['status' => 308, 'headers' => ['Location' => $target . '/api/v1/tasks']]], ['apiKey' => $service->keys['apiKey']], $recorder);
        $client->major('Redirected bearer to another host');
        $result = $client->flush();
        self::assertSame(1, $result->failed);
        self::assertSame(401, $result->errors[0]->status);
        self::assertNull($service->card('Redirected bearer to another host'));
    }

    public function testARedirectLoopFailsOnceWithAWarningAndIsNotRetried(): void
    {
        $recorder = new Recorder();
        $this->server = new RecordingServer([]);
        $loop = $this->server->url . '/api/v1/tasks';
        $this->server->script([['status' => 302, 'headers' => ['Location' => $loop]]]);
        $recorder->clock = microtime(true) * 1000;
        $client = Client::create(['apiKey' => Recorder::API_KEY, 'captureLocation' => false], $this->server->url, $recorder->deps());
        $client->major('Loop');
        $result = $client->flush();
        self::assertSame(1, $result->failed);
        self::assertCount(6, $this->server->requests(), 'the first request and 5 redirects, no retry');
        self::assertSame([], $recorder->sleeps);
        self::assertCount(1, $recorder->linesOf('warning'));
        self::assertStringStartsWith("[svc] {$this->server->url} redirects in a way that cannot be followed", $recorder->linesOf('warning')[0]);
    }

    public function testA3xxWithoutLocationFailsWithAWarning(): void
    {
        $recorder = new Recorder();
        $client = $this->client([['status' => 301, 'body' => '']], ['apiKey' => Recorder::API_KEY], $recorder);
        $client->major('No location');
        $result = $client->flush();
        self::assertSame([1, 301], [$result->failed, $result->errors[0]->status]);
        self::assertCount(1, $this->server->requests(), 'not retried');
        self::assertSame(["[svc] {$this->server->url} answered 301 without a usable Location: reports are not delivered; set SERVICE_URL (or the serviceUrl argument) to the address of your Svc service"], $recorder->linesOf('warning'));
    }
}
