<?php

declare(strict_types=1);

namespace Svc\Laravel;

use Illuminate\Console\Events\CommandStarting;
use Illuminate\Contracts\Container\Container;
use Illuminate\Contracts\Events\Dispatcher;
use Illuminate\Queue\Events\JobProcessing;
use Svc\Integration\Title;

/**
 * Where an exception happened, for its card title: the queued job running now (`queue
 * App\Jobs\SendInvoice`), else the matched route (`GET /orders/{id}`), else the Artisan command
 * (`console orders:sync`), else the request path with ids masked.
 *
 * @internal
 */
final class Place
{
    private ?string $job = null;

    private ?string $command = null;

    public static function listen(Dispatcher $events, self $place): void
    {
        $events->listen(JobProcessing::class, static function (JobProcessing $event) use ($place): void {
            $place->job = $event->job->resolveName();
        });
        // Not at JobFailed: the worker reports the job's exception after that event.
        $events->listen(
            [\Illuminate\Queue\Events\JobProcessed::class, \Illuminate\Queue\Events\Looping::class, \Illuminate\Queue\Events\WorkerStopping::class],
            static function () use ($place): void {
                $place->job = null;
            },
        );
        $events->listen(CommandStarting::class, static function (CommandStarting $event) use ($place): void {
            $place->command = $event->command;
        });
    }

    public function describe(Container $app): ?string
    {
        if ($this->job !== null) {
            return 'queue ' . $this->job;
        }
        $request = $app->bound('request') ? $app->make('request') : null;
        $route = $request?->route();
        if (\is_object($route) && method_exists($route, 'uri')) {
            return Title::route($request->getMethod(), $route->uri(), $request->getPathInfo());
        }
        if ($this->command !== null && $this->command !== '') {
            return 'console ' . $this->command;
        }
        if ($request !== null && PHP_SAPI !== 'cli' && PHP_SAPI !== 'phpdbg') {
            return Title::route($request->getMethod(), null, $request->getPathInfo());
        }
        return null;
    }
}
