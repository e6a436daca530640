<?php

declare(strict_types=1);

namespace Svc\Internal;

use Svc\Generated\Service;

/**
 * The warnings a user sees with `debug` off, each naming the address and the fix: one per kind of
 * answer that refuses every report (a rejected key, a wrong address, a redirect), and the lines of
 * an outage. An outage (the service does not take reports: no answer, refused, unresolvable, 429 or
 * 5xx) is told in one line when its reports are given up (at exit), with the true count and the
 * true time spent on it; a process still running 30 s into an outage tells it once more then,
 * and once when the service is back, if reports were lost meanwhile.
 *
 * @internal
 */
final class Warnings
{
    private const FIX = 'set ' . Service::URL_ENV . ' (or the serviceUrl argument) to the address of your Svc service';

    public function __construct(private readonly string $serviceUrl, private readonly Debug $debug)
    {
    }

    /** Reports are delivered, but through a redirect: one warning, with the address to set instead. */
    public function redirected(string $finalUrl): void
    {
        $base = str_ends_with($finalUrl, Service::TASKS_PATH) ? substr($finalUrl, 0, -\strlen(Service::TASKS_PATH)) : $finalUrl;
        $this->debug->warn(
            "{$this->serviceUrl} redirects to {$finalUrl}: reports are delivered, each through an extra request; set " . Service::URL_ENV . " to {$base}",
            'redirected',
        );
    }

    /** An answer that fails the report for good: one warning per kind the user must fix. */
    public function answered(HttpResult $result, mixed $body, bool $sealed): void
    {
        $at = $this->serviceUrl;
        [$kind, $message] = match (true) {
            $result->failure === HttpResult::REDIRECT => ['redirect', "{$at} redirects in a way that cannot be followed ({$result->error}): reports are not delivered; " . self::FIX],
            $result->status !== null && $result->status >= 300 && $result->status < 400 => ['redirect', "{$at} answered {$result->status} without a usable Location: reports are not delivered; " . self::FIX],
            $result->status === 401 => ['401', "the service at {$at} rejected the credentials (401): check SERVICE_API_KEY, or SERVICE_KEY_ID and SERVICE_SIGNING_SECRET (revoked key? server clock more than 300 s off?)"],
            $result->status === 403 => ['403', "the service at {$at} refused the request's origin (403): allow it on the publishable key, or use a secret key (SERVICE_KEY_ID + SERVICE_SIGNING_SECRET) on servers"],
            $result->status === 404 => ['404', "{$at} answered 404 for " . Service::TASKS_PATH . ': it is not a Svc service; ' . self::FIX],
            $result->status === 422 && $sealed && !isset($body['errors']) => ['decrypt', "the service at {$at} could not decrypt the report (422): check SERVICE_ENCRYPTION_PUBLIC_KEY and SERVICE_ENCRYPTION_KEY_ID"],
            default => [null, null],
        };
        if ($kind !== null) {
            $this->debug->warn($message, $kind);
        }
    }

    /**
     * The one line of reports given up so the process can exit: how many, where, why, and the time
     * spent on the service since it last answered.
     */
    public function givenUp(int $count, Reachability $reachability, int $timeoutMs): void
    {
        $cause = $reachability->cause();
        $why = $cause === null ? "not taken within {$timeoutMs} ms (timeoutMs) at exit" : $this->why($cause);
        if ($reachability->adopted()) {
            $why .= ' (found by another process of this host ' . self::seconds($reachability->downForMs()) . ' ago)';
        }
        $this->debug->warn(
            "{$count} report(s) not delivered to {$this->serviceUrl}: {$why}; {$reachability->spentMs()} ms spent trying;"
                . ' given up so the process can exit' . ($cause === null ? '' : '. ' . $this->fix($cause)),
        );
    }

    /** A process still running 30 s into an outage: once, how many reports wait and why. */
    public function stillDown(int $pending, Reachability $reachability): void
    {
        $cause = $reachability->cause();
        $this->debug->warn(
            "{$this->serviceUrl} has not taken reports for " . self::seconds($reachability->downForMs())
                . ($cause === null ? '' : " ({$this->why($cause)})")
                . ": {$pending} report(s) wait in memory (up to maxQueueSize) and are sent when it answers (one try every 30 s)"
                . ($cause === null ? '' : '. ' . $this->fix($cause)),
        );
    }

    /** The service answers again after an outage that lost reports (the queue was full). */
    public function back(int $downForMs, int $lost): void
    {
        $this->debug->warn(
            "{$this->serviceUrl} takes reports again after " . self::seconds($downForMs)
                . ": {$lost} report(s) were not delivered meanwhile (retries used up, or the queue full: maxQueueSize); the others are sent now",
        );
    }

    /** Why the service does not take reports, from the last delivery that failed. */
    private function why(Outcome $cause): string
    {
        $host = (string) parse_url($this->serviceUrl, PHP_URL_HOST);
        $detail = $cause->error?->getPrevious()?->getMessage() ?? '';
        return match ($cause->failure) {
            HttpResult::TIMEOUT => $cause->timeoutMs > 0 ? "no answer within {$cause->timeoutMs} ms" : 'no time left to send',
            HttpResult::CONNECT => "cannot connect ({$detail})",
            HttpResult::DNS => "cannot resolve {$host}",
            HttpResult::TLS => "TLS failure ({$detail})",
            HttpResult::NETWORK => "the connection failed ({$detail})",
            default => "it answered {$cause->status}" . ($cause->retryAfterMs === null ? '' : ' (Retry-After ' . intdiv($cause->retryAfterMs, 1000) . ' s)'),
        };
    }

    private function fix(Outcome $cause): string
    {
        $host = (string) parse_url($this->serviceUrl, PHP_URL_HOST);
        return match ($cause->failure) {
            HttpResult::TIMEOUT => "Is the service overloaded, or is {$host} the right host?",
            HttpResult::CONNECT => 'Is the service running? Otherwise ' . self::FIX,
            HttpResult::DNS => ucfirst(self::FIX),
            HttpResult::TLS => "Check the service's certificate and the address scheme",
            default => 'Is the service healthy?',
        };
    }

    private static function seconds(int $ms): string
    {
        return $ms < 10_000 ? round($ms / 1000, 1) . ' s' : (int) round($ms / 1000) . ' s';
    }
}
