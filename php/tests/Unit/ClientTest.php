<?php

declare(strict_types=1);

namespace Svc\Tests\Unit;

use PHPUnit\Framework\TestCase;
use Svc\Client;
use Svc\Internal\HttpResult;
use Svc\Tests\Support\FakeTransport;
use Svc\Tests\Support\Recorder;

/** The client: credentials, the service address, the queue bound, outcomes, debug and logLocally, never throwing. */
final class ClientTest extends TestCase
{
    private const BASE = ['apiKey' => Recorder::API_KEY, 'captureLocation' => false];

    public function testWithoutCredentialsTheClientWarnsVisiblyAndSendsNothing(): void
    {
        $recorder = new Recorder();
        $transport = new FakeTransport();
        $client = $recorder->client(['captureLocation' => false], $transport);
        $client->major('Nobody hears this');
        $client->flush();
        self::assertSame([], $transport->requests);
        self::assertSame(
            ['[svc] no apiKey or keyId + signingSecret: client disabled, nothing is sent (set SERVICE_API_KEY, or SERVICE_KEY_ID and SERVICE_SIGNING_SECRET)'],
            $recorder->linesOf('warning'),
        );
    }

    public function testSignedAuthWinsOverAnApiKeyAndHalfASecretKeyWarns(): void
    {
        $recorder = new Recorder();
        $transport = new FakeTransport();
        $client = $recorder->client(['apiKey' => Recorder::API_KEY, 'keyId' => 'svck_1', 'signingSecret' => 'svc_sec_x'], $transport);
        $client->major('Signed');
        $client->flush();
        self::assertArrayHasKey('X-Svc-Signature', $transport->requests[0]['headers']);
        self::assertArrayNotHasKey('Authorization', $transport->requests[0]['headers']);
        self::assertSame(['[svc] apiKey ignored: keyId + signingSecret take precedence (signed auth)'], $recorder->linesOf('warning'));

        $recorder = new Recorder();
        $transport = new FakeTransport();
        $recorder->client(['apiKey' => Recorder::API_KEY, 'keyId' => 'svck_1'], $transport)->major('Bearer');
        self::assertSame(['[svc] keyId and signingSecret go together'], $recorder->linesOf('warning'));
    }

    public function testTheServiceAddressIsServiceUrlThenSERVICE_URLThenTheGeneratedDefault(): void
    {
        $cases = [
            [['SERVICE_URL' => 'http://env.example:8080/'], 'http://arg.example', 'http://arg.example/api/v1/tasks'],
            [['SERVICE_URL' => 'http://env.example:8080/'], null, 'http://env.example:8080/api/v1/tasks'],
            [[], 'https://arg.example/errors/', 'https://arg.example/errors/api/v1/tasks'],
            [[], null, 'https://api.svc.example/api/v1/tasks'],
        ];
        foreach ($cases as [$env, $argument, $url]) {
            $transport = new FakeTransport();
            $client = (new Recorder())->client(self::BASE, $transport, $argument, $env);
            $client->major('Where');
            $client->flush();
            self::assertSame($url, $transport->requests[0]['url']);
        }
    }

    public function testAnInvalidServiceAddressWarnsOnceAndDisablesTheClientWithoutThrowing(): void
    {
        foreach (['ftp://x.example', 'http://', 'https://user:pw@x.example', 'http://x.example/?q=1', 42] as $bad) {
            $recorder = new Recorder();
            $transport = new FakeTransport();
            $client = $recorder->client(self::BASE, $transport, null, \is_string($bad) ? ['SERVICE_URL' => $bad] : []);
            if (!\is_string($bad)) {
                $client = Client::create(self::BASE, $bad, $recorder->deps($transport));
            }
            $client->major('Nowhere');
            $client->flush();
            self::assertSame([], $transport->requests);
            $warnings = $recorder->linesOf('warning');
            self::assertCount(1, $warnings, var_export($bad, true));
            self::assertStringContainsString('client disabled, nothing is sent', $warnings[0]);
        }
    }

    public function testTheQueueIsBoundedTheNewestReportIsDroppedAndCounted(): void
    {
        $recorder = new Recorder();
        $transport = new FakeTransport();
        $client = $recorder->client(self::BASE + ['maxQueueSize' => 3, 'debug' => true], $transport);
        foreach (range(1, 5) as $i) {
            $client->major("Report {$i}");
        }
        self::assertSame(2, $client->droppedCount());
        $result = $client->flush();
        self::assertSame(3, $result->sent);
        self::assertSame(2, $result->dropped['overflow']);
        self::assertSame(['Report 1', 'Report 2', 'Report 3'], array_column($transport->payloads(), 'title'));
        self::assertContains('[svc] queue full (maxQueueSize 3): newest report dropped', $recorder->linesOf('debug'));
        $client->major('Room again');
        self::assertSame(1, $client->flush()->sent);
        self::assertSame(2, $client->droppedCount(), 'droppedCount is cumulative');
    }

    public function testOutcomesLandInOneBucketEach(): void
    {
        $transport = new FakeTransport([
            HttpResult::answer(201, '{"deduplicated":false}'),
            HttpResult::answer(200, '{"deduplicated":true}'),
            HttpResult::answer(200, '{"dropped":true,"reason":"quota","quota_exceeded":true}'),
            HttpResult::answer(200, '{"dropped":true,"reason":"paused"}'),
            HttpResult::answer(200, '{"quota_exceeded":true,"reason":"archived"}'),
            HttpResult::answer(200, ''),
            HttpResult::answer(422, '{"message":"The given data was invalid.","errors":{"title":["too long"]}}'),
        ]);
        $recorder = new Recorder();
        $client = $recorder->client(self::BASE, $transport);
        foreach (range(1, 7) as $i) {
            $client->major("Outcome {$i}");
        }
        $result = $client->flush();
        self::assertSame(
            ['sent' => 2, 'deduplicated' => 1, 'failed' => 1, 'dropped' => ['quota' => 1, 'paused' => 1, 'archived' => 1, 'overflow' => 0, 'sampled' => 0, 'beforeSend' => 0]],
            $result->toArray(),
        );
        self::assertCount(7, $transport->requests, 'dropped reports and the 422 are not retried');
        self::assertSame(['title' => ['too long']], $result->errors[0]->fieldErrors);
        self::assertSame(0, $client->flush()->sent, 'counts start again after each result');
    }

    public function testSampleRateDrawsPerReport(): void
    {
        $recorder = new Recorder();
        $recorder->randoms = [0.1, 0.6, 0.29, 0.3];
        $transport = new FakeTransport();
        $client = $recorder->client(self::BASE + ['sampleRate' => 0.3], $transport);
        foreach (range(1, 4) as $i) {
            $client->major("Sampled {$i}");
        }
        $result = $client->flush();
        self::assertSame(2, $result->sent);
        self::assertSame(2, $result->dropped['sampled']);
        self::assertSame(['Sampled 1', 'Sampled 3'], array_column($transport->payloads(), 'title'));
    }

    public function testLogLocallyLogsTheReadablePayloadEvenWithDebugOffAndSendsNothing(): void
    {
        $recorder = new Recorder();
        $transport = new FakeTransport();
        $client = $recorder->client(['captureLocation' => false, 'logLocally' => true, 'environment' => 'dev'], $transport);
        $client->minorLow('Dry run', 'details');
        self::assertSame(1, $client->flush()->sent);
        self::assertSame([], $transport->requests);
        self::assertSame(
            ['[svc] logLocally (not sent): {"severity":"minor","priority":"low","title":"Dry run","tags":["env:dev"],"description":"details"}'],
            $recorder->linesOf('info'),
        );
    }

    public function testDebugLinesAreRedacted(): void
    {
        $recorder = new Recorder();
        $secret = 'svc_sec_' . str_repeat('ab', 32);
        $transport = new FakeTransport([HttpResult::answer(401, '{"message":"Invalid or missing project API key."}')]);
        $client = $recorder->client(['keyId' => 'svck_abcdef123', 'signingSecret' => $secret, 'debug' => true, 'captureLocation' => false], $transport);
        $client->major('Leaky', "token svc_pub_{$secret} and key svcek_998877 and {$secret}");
        $result = $client->flush();
        self::assertSame(1, $result->failed);
        $text = $recorder->text();
        self::assertStringContainsString('attempt 1 failed: AuthException: Invalid or missing project API key.', $text);
        self::assertStringNotContainsString($secret, $text);
        self::assertStringNotContainsString('svck_abcdef123', $text);
        self::assertStringContainsString('svck_abcd***', (new \Svc\Internal\Debug(static fn () => null, true, []))->redact('svck_abcdef123'));
        self::assertStringContainsString('svcek_9988***', (new \Svc\Internal\Debug(static fn () => null, true, []))->redact('svcek_998877'));
        self::assertSame('Authorization: [REDACTED]', (new \Svc\Internal\Debug(static fn () => null, true, []))->redact('Authorization: Bearer abc'));
    }

    public function testNothingEverThrowsIntoTheHost(): void
    {
        $recorder = new Recorder();
        $transport = new FakeTransport();
        $client = $recorder->client(self::BASE + ['debug' => true, 'beforeSend' => static function (): never {
            throw new \LogicException('scrubber broke');
        }], $transport);
        $recursive = ['a' => 1];
        $recursive['self'] = &$recursive;
        $stream = fopen('php://memory', 'r');
        $badString = new class () {
            public function __toString(): string
            {
                throw new \RuntimeException('no string for you');
            }
        };
        $client->major(null, $recursive, $stream);
        $client->major($badString, $badString, [$badString]);
        $client->major("\xff\xfe invalid", "\xc3", "\xff");
        $client->major(['title' => 'array'], STDIN, 12);
        $result = $client->flush();
        self::assertSame(4, $result->dropped['beforeSend']);
        self::assertCount(4, array_filter($recorder->linesOf('debug'), static fn (string $l): bool => str_contains($l, 'beforeSend threw; report dropped: LogicException: scrubber broke')));

        $transport = new FakeTransport();
        $plain = $recorder->client(self::BASE, $transport);
        $plain->major(null, $recursive, $stream);
        $plain->major($badString, $badString, [$badString]);
        $plain->major("\xff\xfe invalid", "\xc3", "\xff");
        self::assertSame(3, $plain->flush()->sent);
        foreach ($transport->requests as $request) {
            self::assertTrue(mb_check_encoding($request['body'], 'UTF-8'));
            self::assertIsArray(json_decode($request['body'], true));
        }
        self::assertSame("\u{FFFD}\u{FFFD} invalid", $transport->payloads()[2]['title']);
        fclose($stream);
    }

    public function testFromEnvironmentReadsTheCredentialsAndOptionsWin(): void
    {
        $transport = new FakeTransport();
        $recorder = new Recorder();
        $env = ['SERVICE_KEY_ID' => 'svck_env', 'SERVICE_SIGNING_SECRET' => 'svc_sec_env', 'SERVICE_URL' => 'http://127.0.0.1:8787'];
        $client = Client::fromEnvironment(['captureLocation' => false, 'keyId' => 'svck_option'], null, $recorder->deps($transport, $env));
        $client->major('From the environment');
        $client->flush();
        self::assertSame('svck_option', $transport->requests[0]['headers']['X-Svc-Key-Id']);
        self::assertSame('http://127.0.0.1:8787/api/v1/tasks', $transport->requests[0]['url']);
        self::assertSame([], $recorder->linesOf('warning'));
    }

    public function testDisabledClientsDoNothingAndDoNotWarn(): void
    {
        $recorder = new Recorder();
        $transport = new FakeTransport();
        $client = $recorder->client(['enabled' => false], $transport);
        $client->critical('Off');
        self::assertSame(0, $client->flush()->sent);
        self::assertSame([], $transport->requests);
        self::assertSame([], $recorder->lines);
    }
}
