<?php

declare(strict_types=1);

namespace Svc\Tests\Frameworks\Symfony;

use App\Kernel;
use App\Message\ChargeCard;
use PHPUnit\Framework\TestCase;
use Svc\Client;
use Svc\Enum\Severity;
use Svc\Testing\FakeClient;
use Symfony\Bundle\FrameworkBundle\Console\Application;
use Symfony\Component\Console\Input\ArrayInput;
use Symfony\Component\Console\Output\BufferedOutput;
use Symfony\Component\HttpFoundation\Request;

/**
 * The Symfony bundle inside a Symfony app (the example, examples/symfony, on Debian's Symfony 5.4
 * packages), booted in its test environment, where config/services_test.yaml makes `Svc\Client` a
 * FakeClient: kernel.exception reports once with the route pattern, kernel.terminate flushes,
 * console.error and console.terminate, a failed Messenger message in a real worker, the Monolog
 * handler, and svc:test.
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
        $fake->assertReported('RuntimeException: boom: the checkout service is down (GET /boom)', Severity::Major, 'medium', times: 1);
        self::assertSame('src/Controller/DemoController.php', $fake->reports()[0]->fileName());
        self::assertSame(['env:test'], $fake->reports()[0]->tags());
        self::assertCount(1, $fake->pending());
        $this->kernel->terminate($request, $response);
        $fake->assertFlushed(1);
    }

    public function testRouteParametersStayOutOfTheTitleAndHttpErrorsBelow500AreNotReported(): void
    {
        $this->kernel->handle(Request::create('/no-such-page'));
        $this->fake()->assertNothingReported();
        $request = Request::create('/orders/abc/charge');
        self::assertSame(404, $this->kernel->handle($request)->getStatusCode());
        $this->fake()->assertNothingReported();
    }

    public function testTheMonologHandlerMakesACardAtTheAppsCallSite(): void
    {
        $this->kernel->handle(Request::create('/log'));
        $fake = $this->fake();
        $fake->assertReported('Payment provider timed out for order {order}', Severity::Major, times: 1);
        $line = 1 + (int) key(preg_grep('/->error\(/', file(self::EXAMPLE . '/src/Controller/DemoController.php')));
        self::assertSame(['src/Controller/DemoController.php', $line], [$fake->reports()[0]->fileName(), $fake->reports()[0]->lineNumber()]);
        self::assertSame(['env:test', 'channel:app'], $fake->reports()[0]->tags());
    }

    public function testAFailingCommandIsReportedAndFlushed(): void
    {
        [$code, $output] = $this->console(['command' => 'app:sync-orders']);
        self::assertSame(1, $code);
        self::assertStringContainsString('the warehouse API answered 503', $output);
        $fake = $this->fake();
        $fake->assertReported('RuntimeException: app:sync-orders failed: the warehouse API answered <n> (console app:sync-orders)', times: 1);
        $fake->assertFlushed();
    }

    public function testAFailedMessageInTheWorkerIsReportedWithTheHandlersExceptionAndFlushed(): void
    {
        $this->kernel->getContainer()->get('messenger.default_bus')->dispatch(new ChargeCard(42));
        self::assertCount(1, glob("{$this->spool}/*.json"));
        [$code] = $this->console(['command' => 'messenger:consume', 'receivers' => ['async'], '--limit' => 1, '--time-limit' => 10]);
        self::assertSame(0, $code);
        $fake = $this->fake();
        $fake->assertReported('RuntimeException: card declined for order <n> (messenger boom) (messenger App\Message\ChargeCard)', times: 1);
        self::assertSame('src/MessageHandler/ChargeCardHandler.php', $fake->reports()[0]->fileName());
        $fake->assertFlushed();
    }

    public function testSvcTestSendsATestReportAndSaysWhatBecameOfIt(): void
    {
        [$code, $output] = $this->console(['command' => 'svc:test']);
        self::assertSame([0, "Svc: the test report arrived: new card \"Svc test report\".\n"], [$code, $output]);
        $this->fake()->assertReported('Svc test report', Severity::Minor, times: 1);
    }
}
