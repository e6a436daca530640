<?php

declare(strict_types=1);

namespace Svc\Integration;

use Svc\Client;
use Svc\Enum\Severity;
use Svc\Generated\Methods;

/**
 * Reports an exception a framework caught (a request's 500, a failed job, a console error) once:
 * title `Class: masked message (place)`, the Throwable as the description (its throw site as the
 * location), with the configured severity and priority. Never throws.
 *
 * @internal shared by the Laravel and Symfony integrations
 */
final class ExceptionReporter
{
    private readonly string $method;

    public function __construct(private readonly Client $client, mixed $severity = null, mixed $priority = null)
    {
        $this->method = Levels::method(Levels::severity($severity) ?? Severity::Major->value, Levels::priority($priority) ?? Methods::DEFAULT_PRIORITY);
    }

    public function report(\Throwable $error, ?string $place): void
    {
        try {
            if (Reported::mark($error)) {
                $this->client->{$this->method}(Title::of($error, $place), $error);
            }
        } catch (\Throwable) {
            // Never into the host.
        }
    }
}
