<?php

declare(strict_types=1);

namespace Svc\Tests\Frameworks\Symfony;

use App\Kernel;
use App\Message\ChargeCard;
use PHPUnit\Framework\TestCase;
use Svc\Client;
use Svc\Enum\Priority;
use Svc\Enum\Severity;
use Svc\Generated\Integrations;
use Svc\Integration\HttpStatus;
use Svc\Symfony\EventListener\SvcSubscriber;
use Svc\Testing\FakeClient;
use Symfony\Bundle\FrameworkBundle\Console\Application;
use Symfony\Component\Console\Input\ArrayInput;
use Symfony\Component\Console\Output\BufferedOutput;
use Symfony\Component\HttpFoundation\Exception\BadRequestException;
use Symfony\Component\HttpFoundation\Exception\SuspiciousOperationException;
use Symfony\Component\HttpFoundation\Request;
use Symfony\Component\HttpKernel\Exception\HttpException;
use Symfony\Component\HttpKernel\Exception\NotFoundHttpException;
use Symfony\Component\HttpKernel\Exception\ServiceUnavailableHttpException;

/**
 * The Symfony bundle inside a Symfony app (the example, examples/symfony, on Debian's Symfony 5.4
 * packages), booted in its test environment, where config/services_test.yaml makes `Svc\Client` a
 * FakeClient: kernel.exception reports once with the route pattern (a 4xx makes no card),
 * kernel.terminate flushes, console.error and console.terminate, a failed Messenger message in a
 * real worker, the Monolog handler, and svc:test; each as the failure table says for its kind.
 */
final class SymfonyTest extends TestCase
{
    private const EXAMPLE = __DIR__ . '/../../../../examples/symfony';

    private ?Kernel $kernel = null;

    private string $spool = '';

    public static function setUpBeforeClass(): void
    {
        require_once self::EXAMPLE . '/autoload.php';
        exec('rm -rf ' . escapeshellarg(self::EXAMPLE . '/var/cache/test'));
    }

    protected function setUp(): void
    {
        $this->spool = sys_get_temp_dir() . '/svc-spool-' . bin2hex(random_bytes(4));
        $_SERVER['MESSENGER_TRANSPORT_DSN'] = $_ENV['MESSENGER_TRANSPORT_DSN'] = "spool://{$this->spool}";
        $_SERVER['APP_SECRET'] = $_ENV['APP_SECRET'] = 'test-secret';
        $this->kernel = new Kernel('test', false);
        $this->kernel->boot();
    }

    protected function tearDown(): void
    {
        $this->kernel?->shutdown();
        exec('rm -rf ' . escapeshellarg($this->spool));
        unset($_SERVER['MESSENGER_TRANSPORT_DSN'], $_ENV['MESSENGER_TRANSPORT_DSN'], $_SERVER['APP_SECRET'], $_ENV['APP_SECRET']);
    }

    private function fake(): FakeClient
    {
        $fake = $this->kernel->getContainer()->get(Client::class);
        self::assertInstanceOf(FakeClient::class, $fake);
        return $fake;
    }

    private function console(array $input): array
    {
        $application = new Application($this->kernel);
        $application->setAutoExit(false);
        $output = new BufferedOutput();
        $code = $application->run(new ArrayInput($input), $output);
        return [$code, $output->fetch()];
    }

    public function testAnUncaughtExceptionIsReportedOnceWithItsRouteAndFlushedAtTerminate(): void
    {
        $request = Request::create('/boom');
        $response = $this->kernel->handle($request);
        self::assertSame(500, $response->getStatusCode());
        $fake = $this->fake();
        $fake->assertReported('RuntimeException: boom: the checkout service is down (GET /boom)', Severity::Major, Priority::Medium, times: 1);
        self::assertSame('src/Controller/DemoController.php', $fake->reports()[0]->fileName());
        self::assertSame(['env:test', 'symfony', 'server', 'server-error', 'method:GET'], $fake->reports()[0]->tags(), 'the tags of every integration\'s server error');
        self::assertContains(SvcSubscriber::FRAMEWORK, Integrations::FRAMEWORKS);
        self::assertCount(1, $fake->pending());
        $this->kernel->terminate($request, $response);
        $fake->assertFlushed(1);
    }

    public function testRouteParametersStayOutOfTheTitleAndHttpErrorsBelow500AreNotReported(): void
    {
        self::assertSame(404, $this->kernel->handle(Request::create('/no-such-page'))->getStatusCode());
        $this->fake()->assertNothingReported();
        self::assertSame(404, $this->kernel->handle(Request::create('/orders/abc/charge'))->getStatusCode());
        $this->fake()->assertNothingReported();
        self::assertSame(500, $this->kernel->handle(Request::create('/orders/42'))->getStatusCode());
        self::assertSame(500, $this->kernel->handle(Request::create('/orders/43', 'POST'))->getStatusCode());
        $fake = $this->fake();
        $fake->assertReported('RuntimeException: order <n> has no lines (GET /orders/{id})', Severity::Major, Priority::Medium, times: 1);
        $fake->assertReported('RuntimeException: order <n> has no lines (POST /orders/{id})', Severity::Major, Priority::Medium, times: 1);
        self::assertSame(['env:test', 'symfony', 'server', 'server-error', 'method:POST'], $fake->reports()[1]->tags());
    }

    public function testTheStatusSymfonyAnswersSaysWhetherARequestsExceptionIsAServerError(): void
    {
        self::assertSame('client-error', HttpStatus::kind(new NotFoundHttpException('no route')));
        self::assertSame('client-error', HttpStatus::kind(new HttpException(302, 'moved')));
        self::assertSame('client-error', HttpStatus::kind(new SuspiciousOperationException('bad host')));
        self::assertSame('client-error', HttpStatus::kind(new BadRequestException('bad input')));
        self::assertSame('server-error', HttpStatus::kind(new ServiceUnavailableHttpException(null, 'maintenance')));
        self::assertSame('server-error', HttpStatus::kind(new \RuntimeException('boom')));
        self::assertSame(500, HttpStatus::of(new \TypeError('x')));
    }

    public function testTheMonologHandlerMakesACardAtTheAppsCallSite(): void
    {
        $this->kernel->handle(Request::create('/log'));
        $fake = $this->fake();
        $fake->assertReported('Payment provider timed out for order {order} (app log)', Severity::Major, Priority::Medium, times: 1);
        $line = 1 + (int) key(preg_grep('/->error\(/', file(self::EXAMPLE . '/src/Controller/DemoController.php')));
        self::assertSame(['src/Controller/DemoController.php', $line], [$fake->reports()[0]->fileName(), $fake->reports()[0]->lineNumber()]);
        self::assertSame(['env:test', 'monolog', 'server', 'log-record', 'channel:app'], $fake->reports()[0]->tags());
    }

    public function testAFailingCommandIsReportedAndFlushed(): void
    {
        [$code, $output] = $this->console(['command' => 'app:sync-orders']);
        self::assertSame(1, $code);
        self::assertStringContainsString('the warehouse API answered 503', $output);
        $fake = $this->fake();
        $fake->assertReported('RuntimeException: app:sync-orders failed: the warehouse API answered <n> (console app:sync-orders)', Severity::Major, Priority::Medium, times: 1);
        self::assertSame(['env:test', 'symfony', 'server', 'command-error'], $fake->reports()[0]->tags());
        $fake->assertFlushed();
    }

    public function testAFailedMessageInTheWorkerIsReportedWithTheHandlersExceptionAndFlushed(): void
    {
        $this->kernel->getContainer()->get('messenger.default_bus')->dispatch(new ChargeCard(42));
        self::assertCount(1, glob("{$this->spool}/*.json"));
        [$code] = $this->console(['command' => 'messenger:consume', 'receivers' => ['async'], '--limit' => 1, '--time-limit' => 10]);
        self::assertSame(0, $code);
        $fake = $this->fake();
        $fake->assertReported('RuntimeException: card declined for order <n> (messenger boom) (queue App\Message\ChargeCard)', Severity::Major, Priority::Medium, times: 1);
        self::assertSame('src/MessageHandler/ChargeCardHandler.php', $fake->reports()[0]->fileName());
        self::assertSame(['env:test', 'symfony', 'server', 'job-error'], $fake->reports()[0]->tags());
        $fake->assertFlushed();
    }

    public function testSvcTestSendsATestReportAndSaysWhatBecameOfIt(): void
    {
        [$code, $output] = $this->console(['command' => 'svc:test']);
        self::assertSame([0, "Svc: the test report arrived: new card \"Svc test report\".\n"], [$code, $output]);
        $this->fake()->assertReported('Svc test report', Severity::Minor, times: 1);
    }
}
