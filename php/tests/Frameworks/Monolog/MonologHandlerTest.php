<?php

declare(strict_types=1);

namespace Svc\Tests\Frameworks\Monolog;

use Monolog\Handler\TestHandler;
use Monolog\Logger;
use PHPUnit\Framework\TestCase;
use Svc\Enum\Priority;
use Svc\Enum\Severity;
use Svc\Generated\Integrations;
use Svc\Integration\Reported;
use Svc\Monolog\SvcHandler;
use Svc\Testing\FakeClient;
use Svc\Testing\Report;

/**
 * Svc\Monolog\SvcHandler on a real Monolog Logger (Debian's php-monolog 2.9, whose records are
 * arrays; Monolog 3's LogRecord objects are read through the same array access, not testable
 * here because Debian 12 packages Monolog 2 only).
 */
final class MonologHandlerTest extends TestCase
{
    private FakeClient $fake;

    protected function setUp(): void
    {
        $this->fake = FakeClient::create(['projectRoot' => \dirname(__DIR__, 3)]);
    }

    private function logger(SvcHandler $handler, ?TestHandler $after = null): Logger
    {
        return new Logger('payments', $after === null ? [$handler] : [$handler, $after]);
    }

    public function testPsr3LevelsBecomeTheFailureTablesSeverityAndPriorityFromTheThresholdUp(): void
    {
        $logger = $this->logger(new SvcHandler($this->fake, 'notice'));
        foreach (['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency'] as $level) {
            $logger->log($level, "A {$level} record");
        }
        $seen = array_map(static fn (Report $r): string => "{$r->title()}: {$r->severity()->value}/{$r->priority()->value}", $this->fake->reports());
        self::assertSame([
            'A notice record (payments log): minor/medium',
            'A warning record (payments log): moderate/medium',
            'A error record (payments log): major/medium',
            'A critical record (payments log): critical/medium',
            'A alert record (payments log): critical/high',
            'A emergency record (payments log): critical/high',
        ], $seen);
        $table = Integrations::FAILURES['log-record']['levels'];
        foreach ($this->fake->reports() as $report) {
            $level = explode(' ', $report->title())[1];
            self::assertSame([$table[$level]['severity'], $table[$level]['priority']], [$report->severity()->value, $report->priority()->value], $level);
            self::assertSame(['monolog', 'server', 'log-record', 'channel:payments'], $report->tags());
        }
        self::assertContains(SvcHandler::FRAMEWORK, Integrations::FRAMEWORKS);
    }

    public function testTheDefaultThresholdIsErrorAndSeverityAndPriorityCanBeFixed(): void
    {
        $logger = $this->logger(new SvcHandler($this->fake));
        $logger->warning('Below the default threshold');
        $this->fake->assertNothingReported();
        $fixed = $this->logger(new SvcHandler($this->fake, severity: Severity::Critical, priority: 'HIGH'));
        $fixed->error('Always urgent');
        $this->fake->assertReported('Always urgent (payments log)', Severity::Critical, Priority::High, times: 1);
    }

    public function testAMessageRecordIsTitledByItsMaskedFirstLineAndLocatedWhereTheAppLogged(): void
    {
        $logger = $this->logger(new SvcHandler($this->fake));
        $logger->error("Refund of 12.50 for bob@example.com failed\nsecond line", ['order' => 7, 'user' => ['id' => 3]]);
        $line = __LINE__ - 1;
        [$report] = $this->fake->reports();
        self::assertSame('Refund of <n> for <email> failed (payments log)', $report->title());
        self::assertSame("Refund of 12.50 for bob@example.com failed\nsecond line\n\ncontext: {\"order\":7,\"user\":{\"id\":3}}", $report->description());
        self::assertSame(['tests/Frameworks/Monolog/MonologHandlerTest.php', $line], [$report->fileName(), $report->lineNumber()]);
        self::assertSame(['monolog', 'server', 'log-record', 'channel:payments'], $report->tags());
    }

    public function testObviousSecretsAreDroppedFromTheContextAtAnyDepthWhateverTheirCase(): void
    {
        $logger = $this->logger(new SvcHandler($this->fake));
        $logger->error('Login failed', [
            'user' => ['id' => 3, 'Password' => 'hunter2', 'profile' => ['apiKey' => 'k-1', 'plan' => 'pro']],
            'access_token' => 't-1', 'refreshToken' => 't-2', 'HTTP_AUTHORIZATION' => 'Bearer b-1', 'client_secret' => 's-1',
            'X-Api-Key' => 'k-2', 'headers' => [['name' => 'Cookie', 'Cookie' => 'session=c-1']], 'tokens_used' => 12,
            'request' => (object) ['path' => '/login', 'password' => 'hunter3'],
        ]);
        [$report] = $this->fake->reports();
        self::assertSame(
            "Login failed\n\ncontext: " . '{"user":{"id":3,"profile":{"plan":"pro"}},"headers":[{"name":"Cookie"}],"tokens_used":12,"request":{"path":"/login"}}',
            $report->description(),
        );
        foreach (['hunter', 't-1', 't-2', 'b-1', 's-1', 'k-1', 'k-2', 'c-1'] as $secret) {
            self::assertStringNotContainsString($secret, $report->description());
        }
    }

    public function testTheKeysToDropAreAddedToTheDefaultsAndAnExceptionRecordSendsNoContext(): void
    {
        $logger = $this->logger(new SvcHandler($this->fake, dropContextKeys: ['ssn', 'card number']));
        $logger->error('Verification failed', ['customer' => ['user_ssn' => '078-05-1120', 'cardNumber' => '4242', 'lessons' => 2], 'password' => 'x']);
        $logger->error('Checkout failed', ['exception' => new \RuntimeException('declined'), 'order' => 42]);
        [$message, $exception] = $this->fake->reports();
        self::assertSame("Verification failed\n\ncontext: " . '{"customer":{"lessons":2}}', $message->description());
        self::assertStringStartsWith("RuntimeException: declined\n    at tests/Frameworks/Monolog/MonologHandlerTest.php:", $exception->description());
        self::assertStringNotContainsString('order', $exception->description());
        $deep = ['a' => 1];
        for ($i = 0; $i < 12; $i++) {
            $deep = ['down' => $deep];
        }
        $logger->error('Deep', $deep);
        self::assertStringContainsString('"down":"[nested too deep]"', $this->fake->reports()[2]->description());
    }

    public function testARecordWithAnExceptionReportsTheExceptionOnceEvenWhenLoggedTwice(): void
    {
        $logger = $this->logger(new SvcHandler($this->fake));
        $error = new \DomainException('card 4242 declined');
        $throwLine = __LINE__ - 1;
        $logger->error('Checkout failed', ['exception' => $error]);
        $logger->critical('Checkout failed again', ['exception' => $error]);
        $this->fake->assertReported('DomainException: card <n> declined (payments log)', Severity::Major, times: 1);
        [$report] = $this->fake->reports();
        self::assertSame($error, $report->exception());
        self::assertSame($throwLine, $report->lineNumber(), 'the throw site');
        $reported = new \LogicException('already reported by the framework');
        Reported::mark($reported);
        $logger->error('Logged after the framework reported it', ['exception' => $reported]);
        $this->fake->assertReportedCount(1);
    }

    public function testBubblingFollowsMonologAndAFailingClientNeverBreaksLogging(): void
    {
        $after = new TestHandler();
        $this->logger(new SvcHandler($this->fake), $after)->error('Bubbles');
        self::assertTrue($after->hasErrorRecords(), 'handlers are called in order; ours bubbles by default');
        $after = new TestHandler();
        $logger = new Logger('app', [new SvcHandler($this->fake, bubble: false), $after]);
        $logger->error('Stops here');
        self::assertFalse($after->hasErrorRecords());

        $broken = FakeClient::create(['beforeSend' => static function (): never {
            throw new \RuntimeException('scrubber broke');
        }]);
        (new Logger('app', [new SvcHandler($broken)]))->error('Still logs', ['exception' => new \stdClass()]);
        $broken->assertNothingReported();
    }
}
