<?php

declare(strict_types=1);

namespace Svc\Integration;

use Svc\Client;

/**
 * Reports an exception a framework caught (a request's 500, a failed job, a console error) once,
 * as the failure table says for its kind (`Failures`): title `Class: masked message (place)`, the
 * table's tags, the Throwable as the description (its throw site as the location), the table's
 * severity and priority unless the app configured its own. A kind that makes no card (a 4xx the
 * framework raises) is marked all the same, so the Monolog handler does not make a card of it
 * when the framework logs it. Never throws.
 *
 * @internal shared by the Laravel and Symfony integrations
 */
final class ExceptionReporter
{
    private readonly ?string $severity;

    private readonly ?string $priority;

    /**
     * @param string $framework the integration (`laravel`, `symfony`): the `{framework}` tag
     * @param mixed $severity a severity (enum case or string) for every card instead of the table's; null: the table's
     * @param mixed $priority the same for the priority
     */
    public function __construct(private readonly Client $client, private readonly string $framework, mixed $severity = null, mixed $priority = null)
    {
        $this->severity = Levels::severity($severity);
        $this->priority = Levels::priority($priority);
    }

    /** @param array<string, string|null> $where the values of the kind's place and tags (`method`, `route`, `command`, `job`) */
    public function report(\Throwable $error, string $kind, array $where = []): void
    {
        try {
            if (!Reported::mark($error)) {
                return;
            }
            $report = Failures::report($kind, $this->framework, $error, $where);
            if ($report !== null) {
                $this->client->{$report->method($this->severity, $this->priority)}($report->title, $error, $report->tags);
            }
        } catch (\Throwable) {
            // Never into the host.
        }
    }
}
