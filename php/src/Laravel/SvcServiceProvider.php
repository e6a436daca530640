<?php

declare(strict_types=1);

namespace Svc\Laravel;

use Illuminate\Contracts\Debug\ExceptionHandler;
use Illuminate\Contracts\Events\Dispatcher;
use Illuminate\Support\ServiceProvider;
use Svc\Client;
use Svc\Integration\ClientFactory;
use Svc\Integration\ExceptionReporter;
use Svc\Laravel\Console\TestCommand;

/**
 * The Laravel service provider (package auto-discovery, Laravel 8 to 12): the `Svc\Client`
 * singleton (alias `svc`, facade `Svc`) built from `config/svc.php`; every exception the exception
 * handler reports (its `reportable()` callbacks, so `dontReport` applies) becomes a card as the
 * failure table says for its kind (`FailureContext`: a request's 5xx, a command, a queued job; a
 * 4xx makes none), tagged `laravel`; reports are flushed after the response is sent
 * (`terminating()`), after each queued job and worker loop, after each Octane request, task and
 * tick, and at the end of each Artisan command.
 */
class SvcServiceProvider extends ServiceProvider
{
    /** The integration's name in the failure table (the `{framework}` tag). */
    public const FRAMEWORK = 'laravel';

    /** Where the publishable config lives in the package. */
    public const CONFIG = __DIR__ . '/../../config/svc.php';

    /** Events after which queued reports go out (Octane's are named: Octane may not be installed). */
    public const FLUSH_EVENTS = [
        \Illuminate\Queue\Events\JobProcessed::class,
        \Illuminate\Queue\Events\JobFailed::class,
        \Illuminate\Queue\Events\JobExceptionOccurred::class,
        \Illuminate\Queue\Events\Looping::class,
        \Illuminate\Queue\Events\WorkerStopping::class,
        \Illuminate\Console\Events\CommandFinished::class,
        'Laravel\Octane\Events\RequestTerminated',
        'Laravel\Octane\Events\TaskTerminated',
        'Laravel\Octane\Events\TickTerminated',
    ];

    public function register(): void
    {
        $this->mergeConfigFrom(self::CONFIG, 'svc');
        $this->app->singleton(Client::class, fn ($app): Client => ClientFactory::create(
            (array) $app['config']->get('svc.options', []),
            (array) $app['config']->get('svc.credentials', []),
            $app['config']->get('svc.url'),
            $app->basePath(),
        ));
        $this->app->alias(Client::class, 'svc');
        $this->app->singleton(FailureContext::class);
    }

    public function boot(): void
    {
        if ($this->app->runningInConsole()) {
            $this->publishes([self::CONFIG => $this->app->configPath('svc.php')], 'svc-config');
            $this->commands([TestCommand::class]);
        }
        $events = $this->app->make(Dispatcher::class);
        FailureContext::listen($events, $this->app->make(FailureContext::class));
        $events->listen(self::FLUSH_EVENTS, fn () => $this->flush());
        $this->app->terminating(fn () => $this->flush());
        if ($this->app['config']->get('svc.report_exceptions', true)) {
            $this->reportExceptions();
        }
    }

    /** Every exception the handler reports, through `reportable()` (Laravel 8 and later). */
    private function reportExceptions(): void
    {
        $handler = $this->app->make(ExceptionHandler::class);
        if (!method_exists($handler, 'reportable')) {
            return;
        }
        $handler->reportable(function (\Throwable $error): void {
            $config = $this->app['config'];
            $reporter = new ExceptionReporter($this->app->make(Client::class), self::FRAMEWORK, $config->get('svc.severity'), $config->get('svc.priority'));
            [$kind, $where] = $this->app->make(FailureContext::class)->of($error, $this->app);
            $reporter->report($error, $kind, $where);
        });
    }

    /**
     * What is queued goes out now, for at most the configured `timeoutMs` (and a service that does
     * not take reports costs that once in the process's life); never throws. A client never made
     * has nothing to send.
     */
    private function flush(): void
    {
        try {
            if (!$this->app->resolved(Client::class)) {
                return;
            }
            $this->app->make(Client::class)->flush(ClientFactory::flushBudgetMs((array) $this->app['config']->get('svc.options', [])));
        } catch (\Throwable) {
            // Never into the host.
        }
    }
}
