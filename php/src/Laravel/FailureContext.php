<?php

declare(strict_types=1);

namespace Svc\Laravel;

use Illuminate\Console\Events\CommandStarting;
use Illuminate\Contracts\Container\Container;
use Illuminate\Contracts\Events\Dispatcher;
use Illuminate\Queue\Events\JobProcessing;
use Svc\Integration\HttpStatus;
use Svc\Integration\Title;

/**
 * What kind of failure an exception the handler reports is, and where it happened, for the
 * failure table (`Svc\Integration\Failures`): in the queued job running now, a `job-error` (`queue
 * App\Jobs\SendInvoice`); in a request, a `server-error` at the matched route (`GET
 * /orders/{id}`; before routing, the path with ids masked), or a `client-error` (no card) when
 * Laravel answers it with a 3xx or 4xx; in an Artisan command, a `command-error` (`console
 * orders:sync`); anywhere else (a script that boots the app), an `uncaught-exception`.
 *
 * @internal
 */
final class FailureContext
{
    private ?string $job = null;

    private ?string $command = null;

    public static function listen(Dispatcher $events, self $context): void
    {
        $events->listen(JobProcessing::class, static function (JobProcessing $event) use ($context): void {
            $context->job = $event->job->resolveName();
        });
        // Not at JobFailed: the worker reports the job's exception after that event.
        $events->listen(
            [\Illuminate\Queue\Events\JobProcessed::class, \Illuminate\Queue\Events\Looping::class, \Illuminate\Queue\Events\WorkerStopping::class],
            static function () use ($context): void {
                $context->job = null;
            },
        );
        $events->listen(CommandStarting::class, static function (CommandStarting $event) use ($context): void {
            $context->command = $event->command;
        });
    }

    /** @return array{string, array<string, string>} the failure kind of `$error` and its place and tag values */
    public function of(\Throwable $error, Container $app): array
    {
        if ($this->job !== null) {
            return ['job-error', ['job' => $this->job]];
        }
        $request = $app->bound('request') ? $app->make('request') : null;
        $route = $request?->route();
        if (\is_object($route) && method_exists($route, 'uri')) {
            return [HttpStatus::kind($error), ['method' => $request->getMethod(), 'route' => Title::route((string) $route->uri(), '')]];
        }
        if ($this->command !== null && $this->command !== '') {
            return ['command-error', ['command' => $this->command]];
        }
        // A web request that failed before routing (Octane's workers are not "in console" either),
        // or an HTTP exception with a 3xx or 4xx, which only answers a request.
        $web = method_exists($app, 'runningInConsole') && !$app->runningInConsole();
        if ($request !== null && ($web || HttpStatus::of($error) < 500)) {
            return [HttpStatus::kind($error), ['method' => $request->getMethod(), 'route' => Title::route(null, $request->getPathInfo())]];
        }
        return ['uncaught-exception', []];
    }
}
