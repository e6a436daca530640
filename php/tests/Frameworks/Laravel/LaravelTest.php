<?php

declare(strict_types=1);

namespace Svc\Tests\Frameworks\Laravel;

use Illuminate\Contracts\Debug\ExceptionHandler;
use Illuminate\Filesystem\Filesystem;
use Illuminate\Foundation\PackageManifest;
use Illuminate\Support\Facades\Artisan;
use Illuminate\Support\Facades\Log;
use Illuminate\Support\Facades\Route;
use Illuminate\Support\ServiceProvider;
use Svc\Client;
use Svc\Enum\Priority;
use Svc\Enum\Severity;
use Svc\Generated\Integrations;
use Svc\Laravel\Facades\Svc;
use Svc\Laravel\SvcServiceProvider;
use Svc\Monolog\SvcHandler;
use Svc\Testing\FakeClient;
use Svc\Testing\Report;

/**
 * The Laravel integration inside a Laravel app (the example), through Laravel's own testing API:
 * exceptions reported through the handler's `reportable()` callbacks once each as the failure
 * table says for their kind (a request's 5xx with the route pattern in the title, a 4xx with no
 * card, a queued job, an exception outside any of them), a flush after the response (terminating callbacks), after a queued job and after
 * Octane's events, the `svc` log channel, the facade and `Svc::fake()`, `svc:test`, the
 * publishable config and package auto-discovery.
 */
final class LaravelTest extends ExampleAppTestCase
{
    /** Laravel's console assertions need Mockery, which Debian does not package: Artisan::call and Artisan::output stand in. */
    public $mockConsoleOutput = false;

    public function testAnUncaughtExceptionIsReportedOnceWithItsRouteAndFlushedAfterTheResponse(): void
    {
        $fake = Svc::fake();
        self::assertSame($fake, $this->app->make(Client::class), 'the container gives the fake to everyone');
        $this->get('/boom')->assertStatus(500)->assertSee('Server Error');
        $fake->assertReported('RuntimeException: boom: the checkout service is down (GET /boom)', Severity::Major, Priority::Medium, times: 1);
        [$report] = $fake->reports();
        self::assertSame(['laravel', 'server', 'server-error', 'method:GET'], $report->tags(), 'the tags of every integration\'s server error');
        self::assertContains(SvcServiceProvider::FRAMEWORK, Integrations::FRAMEWORKS);
        self::assertSame('routes/web.php', $report->fileName(), 'the throw site, relative to base_path()');
        self::assertInstanceOf(\RuntimeException::class, $report->exception());
        self::assertStringStartsWith("RuntimeException: boom: the checkout service is down\n    at routes/web.php:", (string) $report->description());
        $fake->assertReportedCount(1); // the `svc` log channel skipped the exception the handler reported
        $fake->assertFlushed();
    }

    public function testTheTitleNamesTheRoutePatternSoEveryOrderMakesOneCard(): void
    {
        $fake = Svc::fake();
        $this->get('/orders/42')->assertStatus(500);
        $this->post('/orders/43')->assertStatus(405);
        $this->get('/orders/43')->assertStatus(500);
        $fake->assertReported('RuntimeException: order <n> has no lines (GET /orders/{order})', Severity::Major, Priority::Medium, times: 2);
        $fake->assertReportedCount(2);
    }

    public function testAFourHundredTheFrameworkRaisesMakesNoCardAndAFiveHundredDoes(): void
    {
        // Laravel's handler does not report its HTTP exceptions at all (internalDontReport); an app
        // that reports them still gets no card for a 4xx, and Laravel's log of it makes none either.
        (function (): void {
            $this->internalDontReport = array_values(array_diff($this->internalDontReport, [\Symfony\Component\HttpKernel\Exception\HttpException::class, \Illuminate\Database\Eloquent\ModelNotFoundException::class]));
        })->call($this->app->make(ExceptionHandler::class));
        Route::get('/abort/{status}', static fn (int $status) => abort($status, "aborted with {$status}"));
        Route::get('/missing-model', static fn () => throw (new \Illuminate\Database\Eloquent\ModelNotFoundException())->setModel('App\Order', [42]));
        $fake = Svc::fake();
        $this->get('/abort/404')->assertStatus(404);
        $this->get('/abort/403')->assertStatus(403);
        $this->get('/missing-model')->assertStatus(404);
        $this->get('/no-such-page')->assertStatus(404);
        $fake->assertNothingReported();
        $this->get('/abort/503')->assertStatus(503);
        $fake->assertReported('Symfony\Component\HttpKernel\Exception\HttpException: aborted with <n> (GET /abort/{status})', Severity::Major, Priority::Medium, times: 1);
        $fake->assertReportedCount(1);
    }

    public function testAnExceptionOutsideARequestCommandOrJobIsAnUncaughtException(): void
    {
        $fake = Svc::fake();
        $this->app->make(ExceptionHandler::class)->report(new \RuntimeException('cache warmer died after 3 tries'));
        $fake->assertReported('RuntimeException: cache warmer died after <n> tries (uncaught exception)', Severity::Critical, Priority::High, times: 1);
        self::assertSame(['laravel', 'server', 'uncaught-exception'], $fake->reports()[0]->tags());
    }

    public function testWhatTheHandlerDoesNotReportIsNotReported(): void
    {
        $fake = Svc::fake();
        $this->get('/no-such-page')->assertStatus(404);
        $handler = $this->app->make(ExceptionHandler::class);
        (function (): void {
            $this->dontReport[] = \RuntimeException::class;
        })->call($handler);
        $this->get('/boom')->assertStatus(500);
        $fake->assertNothingReported();
    }

    public function testTheSeverityAndPriorityOfReportedExceptionsComeFromTheConfig(): void
    {
        config(['svc.severity' => 'critical', 'svc.priority' => Priority::High]);
        $fake = Svc::fake();
        $this->get('/boom');
        $fake->assertReported(severity: Severity::Critical, priority: 'high', times: 1);
    }

    public function testTheLogChannelMakesCardsOfErrorRecordsAtTheAppsCallSite(): void
    {
        $fake = Svc::fake();
        $this->get('/log')->assertOk();
        $channel = $this->app->environment();
        $fake->assertReported("Payment provider timed out for order {order} ({$channel} log)", Severity::Major, Priority::Medium, times: 1);
        [$report] = $fake->reports();
        self::assertSame(['monolog', 'server', 'log-record', "channel:{$channel}"], $report->tags());
        $line = 1 + (int) key(preg_grep('/Log::error\(/', file(self::EXAMPLE . '/routes/web.php')));
        self::assertSame(['routes/web.php', $line], [$report->fileName(), $report->lineNumber()]);
        self::assertSame("Payment provider timed out for order {order}\n\ncontext: {\"order\":42}", $report->description());
        self::assertInstanceOf(SvcHandler::class, $this->app->make('log')->channel('svc')->getLogger()->getHandlers()[0]);
        $fake->assertFlushed();
    }

    public function testTheLogChannelDropsSecretContextKeysAndTheKeysItsConfigNames(): void
    {
        config(['logging.channels.svc.with' => ['dropContextKeys' => ['ssn']]]);
        $fake = Svc::fake();
        Log::channel('svc')->error('Identity check failed', ['customer' => ['id' => 7, 'user_ssn' => '078-05-1120', 'apiToken' => 't-1'], 'password' => 'p']);
        [$report] = $fake->reports();
        self::assertSame("Identity check failed\n\ncontext: {\"customer\":{\"id\":7}}", $report->description());
    }

    public function testTheFacadeReportsWithTheAppsOptions(): void
    {
        config(['svc.options' => ['environment' => 'staging', 'defaultTags' => ['shop']]]);
        $fake = Svc::fake();
        $this->get('/report')->assertOk();
        $fake->assertReported(static fn (Report $r): bool => $r->title() === 'Inventory below threshold'
            && $r->is(Severity::Moderate, Priority::High) && $r->tags() === ['shop', 'env:staging', 'inventory']);
    }

    public function testAFailedQueuedJobIsReportedWithTheJobAndFlushedBeforeTheWorkerGoesOn(): void
    {
        $database = tempnam(sys_get_temp_dir(), 'svc-laravel-') ?: self::fail('no temp file');
        config(['database.connections.sqlite.database' => $database, 'queue.default' => 'database']);
        try {
            self::assertSame(0, Artisan::call('migrate', ['--force' => true]));
            $fake = Svc::fake();
            \App\Jobs\ChargeCard::dispatch(7);
            self::assertSame(0, Artisan::call('queue:work', ['connection' => 'database', '--once' => true, '--tries' => 1]));
            $fake->assertReported('RuntimeException: card declined for order <n> (queue boom) (queue App\Jobs\ChargeCard)', Severity::Major, Priority::Medium, times: 1);
            self::assertSame('app/Jobs/ChargeCard.php', $fake->reports()[0]->fileName());
            self::assertSame(['laravel', 'server', 'job-error'], $fake->reports()[0]->tags());
            $fake->assertFlushed();
        } finally {
            @unlink($database);
        }
    }

    public function testWorkerAndOctaneEventsFlush(): void
    {
        foreach ([
            'Laravel\Octane\Events\RequestTerminated',
            'Laravel\Octane\Events\TaskTerminated',
            'Laravel\Octane\Events\TickTerminated',
            \Illuminate\Queue\Events\Looping::class,
            \Illuminate\Queue\Events\WorkerStopping::class,
        ] as $event) {
            $fake = Svc::fake();
            Svc::minor('Made inside a long-running worker');
            self::assertCount(1, $fake->pending(), $event);
            // Octane is not packaged by Debian: its events are dispatched by name, as the provider listens for them.
            $this->app['events']->dispatch($event, [new \stdClass()]);
            $fake->assertFlushed(1);
        }
    }

    public function testSvcTestSendsATestReportAndSaysWhatBecameOfIt(): void
    {
        $fake = Svc::fake();
        self::assertSame(0, Artisan::call('svc:test'));
        self::assertSame("Svc: the test report arrived: new card \"Svc test report\".\n", Artisan::output());
        $fake->assertReported('Svc test report', Severity::Minor, times: 1);
    }

    public function testTheConfigIsPublishableAndReadsTheServiceVariables(): void
    {
        self::assertSame([SvcServiceProvider::CONFIG => config_path('svc.php')], ServiceProvider::pathsToPublish(SvcServiceProvider::class, 'svc-config'));
        $_ENV['SERVICE_KEY_ID'] = 'svck_published';
        $_ENV['SERVICE_URL'] = 'https://errors.example.com';
        try {
            $config = require SvcServiceProvider::CONFIG;
        } finally {
            unset($_ENV['SERVICE_KEY_ID'], $_ENV['SERVICE_URL']);
        }
        self::assertSame('https://errors.example.com', $config['url']);
        self::assertSame('svck_published', $config['credentials']['keyId']);
        self::assertNull($config['credentials']['signingSecret']);
        self::assertSame([null, null, true], [$config['severity'], $config['priority'], $config['report_exceptions']], 'the failure table\'s severity and priority');
        self::assertTrue(config('svc.report_exceptions'), 'merged as the default config');
    }

    public function testComposerAutoDiscoveryFindsTheProviderAndTheFacade(): void
    {
        $base = sys_get_temp_dir() . '/svc-discovery-' . bin2hex(random_bytes(4));
        mkdir("{$base}/vendor/composer", 0777, true);
        $package = json_decode((string) file_get_contents(__DIR__ . '/../../../composer.json'), true);
        file_put_contents("{$base}/vendor/composer/installed.json", json_encode(['packages' => [$package]]));
        try {
            $manifest = new PackageManifest(new Filesystem(), $base, "{$base}/packages.php");
            self::assertSame([SvcServiceProvider::class], $manifest->providers());
            self::assertSame(['Svc' => Svc::class], $manifest->aliases());
        } finally {
            exec('rm -rf ' . escapeshellarg($base));
        }
    }

    public function testTheRealClientIsASingletonBuiltFromTheConfig(): void
    {
        config(['svc.credentials.apiKey' => 'svc_pub_0123456789abcdef0123456789abcdef0123456789abcdef']);
        $client = $this->app->make(Client::class);
        self::assertNotInstanceOf(FakeClient::class, $client);
        self::assertSame($client, $this->app->make('svc'));
        self::assertSame($client, Svc::getFacadeRoot());
    }
}
