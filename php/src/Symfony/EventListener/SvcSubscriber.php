<?php

declare(strict_types=1);

namespace Svc\Symfony\EventListener;

use Svc\Client;
use Svc\Integration\ClientFactory;
use Svc\Integration\ExceptionReporter;
use Svc\Integration\HttpStatus;
use Svc\Integration\Title;
use Symfony\Component\Console\ConsoleEvents;
use Symfony\Component\Console\Event\ConsoleErrorEvent;
use Symfony\Component\EventDispatcher\EventSubscriberInterface;
use Symfony\Component\HttpKernel\Event\ExceptionEvent;
use Symfony\Component\HttpKernel\KernelEvents;
use Symfony\Component\Routing\RouterInterface;

/**
 * Reports what Symfony catches, as the failure table says for its kind (tagged `symfony`), and
 * flushes when a unit of work ends:
 * - `kernel.exception`: the request's exception, a `server-error` at the route pattern (`GET
 *   /orders/{id}`), or a `client-error` (no card) when Symfony answers it with a 3xx or 4xx;
 *   `kernel.terminate` (after the response is sent): flush.
 * - `console.error`: the command's exception, a `command-error` (`console app:sync`);
 *   `console.terminate`: flush.
 * - Messenger: a failed message's exception (the handler's, unwrapped), a `job-error` (`queue
 *   App\Message\X`), and a flush after every handled or failed message and when the worker stops,
 *   so a `messenger:consume` worker that never exits delivers as it goes.
 * Every flush is bounded by `timeoutMs`, and a service that does not take reports costs that once
 * in the process's life (the client's exit budget); nothing here throws into the app.
 */
final class SvcSubscriber implements EventSubscriberInterface
{
    /** Messenger's events, by name (Messenger is optional). */
    private const MESSAGE_FAILED = 'Symfony\Component\Messenger\Event\WorkerMessageFailedEvent';

    /** The integration's name in the failure table (the `{framework}` tag). */
    public const FRAMEWORK = 'symfony';

    private const MESSENGER_DONE = [
        'Symfony\Component\Messenger\Event\WorkerMessageHandledEvent',
        'Symfony\Component\Messenger\Event\WorkerStoppedEvent',
    ];

    private readonly ExceptionReporter $reporter;

    private readonly int $budgetMs;

    public function __construct(
        private readonly Client $client,
        private readonly bool $reportExceptions,
        mixed $severity,
        mixed $priority,
        mixed $timeoutMs,
        private readonly ?RouterInterface $router = null,
    ) {
        $this->reporter = new ExceptionReporter($client, self::FRAMEWORK, $severity, $priority);
        $this->budgetMs = ClientFactory::flushBudgetMs(['timeoutMs' => $timeoutMs]);
    }

    public static function getSubscribedEvents(): array
    {
        $events = [
            KernelEvents::EXCEPTION => ['onKernelException', 128],
            KernelEvents::TERMINATE => ['flush', -1024],
            ConsoleEvents::ERROR => ['onConsoleError', 128],
            ConsoleEvents::TERMINATE => ['flush', -1024],
            self::MESSAGE_FAILED => ['onMessageFailed', -1024],
        ];
        foreach (self::MESSENGER_DONE as $event) {
            $events[$event] = ['flush', -1024];
        }
        return $events;
    }

    public function onKernelException(ExceptionEvent $event): void
    {
        if (!$this->reportExceptions) {
            return;
        }
        $error = $event->getThrowable();
        $request = $event->getRequest();
        $this->reporter->report($error, HttpStatus::kind($error), [
            'method' => $request->getMethod(),
            'route' => Title::route($this->routePattern($request->attributes->get('_route')), $request->getPathInfo()),
        ]);
    }

    public function onConsoleError(ConsoleErrorEvent $event): void
    {
        if ($this->reportExceptions) {
            $this->reporter->report($event->getError(), 'command-error', ['command' => $event->getCommand()?->getName()]);
        }
    }

    /** @param \Symfony\Component\Messenger\Event\WorkerMessageFailedEvent $event */
    public function onMessageFailed(object $event): void
    {
        if ($this->reportExceptions) {
            $error = $event->getThrowable();
            $nested = match (true) {
                method_exists($error, 'getWrappedExceptions') => $error->getWrappedExceptions(),
                method_exists($error, 'getNestedExceptions') => $error->getNestedExceptions(),
                default => [],
            };
            $cause = reset($nested);
            $this->reporter->report($cause instanceof \Throwable ? $cause : $error, 'job-error', ['job' => $event->getEnvelope()->getMessage()::class]);
        }
        $this->flush();
    }

    public function flush(): void
    {
        try {
            $this->client->flush($this->budgetMs);
        } catch (\Throwable) {
            // Never into the host.
        }
    }

    private function routePattern(mixed $name): ?string
    {
        try {
            return \is_string($name) ? $this->router?->getRouteCollection()->get($name)?->getPath() : null;
        } catch (\Throwable) {
            return null;
        }
    }
}
