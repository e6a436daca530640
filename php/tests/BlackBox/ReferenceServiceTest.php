<?php

declare(strict_types=1);

namespace Svc\Tests\BlackBox;

use PHPUnit\Framework\TestCase;
use Svc\Client;
use Svc\Exception\AuthException;
use Svc\Generated\Methods;
use Svc\Tests\Support\Recorder;
use Svc\Tests\Support\ReferenceService;

/**
 * Black box against the built reference service on 127.0.0.1:0 (a real server that checks auth,
 * opens sealed boxes, deduplicates and stores cards), through the real curl transport.
 */
final class ReferenceServiceTest extends TestCase
{
    private static ReferenceService $svc;

    public static function setUpBeforeClass(): void
    {
        self::$svc = ReferenceService::get();
    }

    /** A client on the real network; the injected clock is the real time (signatures must be fresh). */
    private static function client(array $options, ?Recorder $recorder = null): Client
    {
        $recorder ??= new Recorder();
        $recorder->clock = microtime(true) * 1000;
        return Client::create($options, self::$svc->url, $recorder->deps());
    }

    private static function bearer(array $options = []): array
    {
        return ['apiKey' => self::$svc->keys['apiKey']] + $options;
    }

    private static function signed(array $options = []): array
    {
        return ['keyId' => self::$svc->keys['keyId'], 'signingSecret' => self::$svc->keys['signingSecret']] + $options;
    }

    private static function sealed(array $options = []): array
    {
        return ['encryptionPublicKey' => self::$svc->keys['encryptionPublicKey'], 'encryptionKeyId' => self::$svc->keys['encryptionKeyId']] + $options;
    }

    public function testEveryReportingMethodMakesACardWithItsSeverityAndPriority(): void
    {
        $client = self::client(self::signed());
        foreach (array_keys(Methods::TABLE) as $method) {
            $client->{$method}("PHP method {$method}", "made by {$method}()");
        }
        $result = $client->flush();
        self::assertSame(16, $result->sent, json_encode($result->toArray()));
        foreach (Methods::TABLE as $method => [$severity, $priority]) {
            $card = self::$svc->card("PHP method {$method}");
            self::assertNotNull($card, $method);
            self::assertSame([$severity, $priority, 'todo'], [$card['severity'], $card['priority'], $card['status']], $method);
        }
    }

    public function testBearerNewCardThenDeduplicatedWithTagsMerged(): void
    {
        $client = self::client(self::bearer(['environment' => 'bb', 'captureLocation' => false]));
        $client->majorHigh('PHP bearer dedup', 'first', ['one']);
        $client->majorHigh('PHP bearer dedup', 'second', 'two, one');
        $result = $client->flush();
        self::assertSame([1, 1, 0], [$result->sent, $result->deduplicated, $result->failed]);
        $card = self::$svc->card('PHP bearer dedup');
        self::assertSame(2, $card['occurrence_count']);
        self::assertSame('first', $card['description']);
        self::assertSame(['env:bb', 'one', 'two'], $card['tags']);
    }

    public function testSignedAndSealedReportsAreOpenedByTheService(): void
    {
        $cases = [
            'PHP sealed bearer' => self::bearer(self::sealed()),
            'PHP sealed signed' => self::signed(self::sealed()),
            'PHP sealed no key id' => self::signed(['encryptionPublicKey' => self::$svc->keys['encryptionPublicKey']]),
        ];
        foreach ($cases as $title => $options) {
            $client = self::client($options);
            $client->minorLow($title, ['secret' => 'inside the box', 'title' => $title]);
            self::assertSame(1, $client->flush()->sent, $title);
            self::assertSame('{"secret":"inside the box","title":"' . $title . '"}', self::$svc->card($title)['description']);
        }
    }

    public function testTheLocationReachesTheCardAndItsVariant(): void
    {
        $client = self::client(self::bearer(['projectRoot' => \dirname(__DIR__, 2)]));
        $error = new \RuntimeException('located'); $line = __LINE__;
        $client->critical('PHP location', $error);
        $client->flush();
        $variant = self::$svc->card('PHP location')['variants'][0];
        self::assertSame(['tests/BlackBox/ReferenceServiceTest.php', $line], [$variant['file_name'], $variant['line_number']]);
        self::assertStringStartsWith("RuntimeException: located\n    at tests/BlackBox/ReferenceServiceTest.php:{$line}\n#0 ", $variant['description']);
    }

    public function testTheQueueBoundDropsTheNewestReportsAndCountsThem(): void
    {
        $client = self::client(self::bearer(['maxQueueSize' => 3, 'max_retries' => 0]));
        foreach (range(1, 5) as $i) {
            $client->minorHigh("PHP queue bound {$i}", "report {$i} of the queue bound test");
        }
        self::assertSame(2, $client->droppedCount());
        $result = $client->flush();
        self::assertSame([3, 2], [$result->sent, $result->dropped['overflow']]);
        $titles = array_column(self::$svc->cards(), 'title');
        foreach (range(1, 5) as $i) {
            self::assertSame($i <= 3, \in_array("PHP queue bound {$i}", $titles, true), "report {$i}");
        }
    }

    public function testAPausedProjectDropsReportsCountedNotRetriedNotFailed(): void
    {
        self::$svc->setProjectState('paused');
        try {
            $client = self::client(self::signed());
            $client->major('PHP paused');
            $result = $client->flush();
            self::assertSame(1, $result->dropped['paused']);
            self::assertSame([0, 0], [$result->sent, $result->failed]);
        } finally {
            self::$svc->setProjectState('active');
        }
        self::assertNull(self::$svc->card('PHP paused'));
    }

    public function testAWrongSecretFailsAsAuthExceptionOnceAndWarnsOnceWithTheFix(): void
    {
        $recorder = new Recorder();
        $client = self::client(['keyId' => self::$svc->keys['keyId'], 'signingSecret' => 'svc_sec_wrong'], $recorder);
        $client->major('PHP wrong secret 1');
        $client->major('PHP wrong secret 2');
        $result = $client->flush();
        self::assertSame(2, $result->failed);
        self::assertInstanceOf(AuthException::class, $result->errors[0]);
        self::assertSame('Invalid or missing project API key.', $result->errors[0]->getMessage());
        self::assertSame([], $recorder->sleeps, '401 is never retried');
        $warnings = $recorder->linesOf('warning');
        self::assertCount(1, $warnings);
        self::assertStringContainsString(self::$svc->url . ' rejected the credentials (401)', $warnings[0]);
        self::assertNull(self::$svc->card('PHP wrong secret 1'));
    }

    public function testAnOversizedFieldChangedByBeforeSendIsClampedSoTheServiceAcceptsIt(): void
    {
        $client = self::client(self::bearer(['beforeSend' => static fn (array $p): array => ['title' => str_repeat('🙂', 400), 'tags' => [str_repeat('t', 80)]] + $p]));
        $client->moderate('PHP clamp original');
        self::assertSame(1, $client->flush()->sent);
        $card = self::$svc->card(str_repeat('🙂', 255));
        self::assertNotNull($card);
        self::assertSame([str_repeat('t', 50)], $card['tags']);
    }
}
