<?php

declare(strict_types=1);

namespace Svc\Internal;

use Svc\Exception\SvcException;
use Svc\Generated\Retry;
use Svc\Generated\Service;

/**
 * Delivers one report: the exact bytes (sealed first when encrypting), one POST per attempt,
 * re-signed with a fresh timestamp on every attempt, retried on 429, 5xx and network failures only
 * (contract 7), waiting a numeric `Retry-After` verbatim or else exponential backoff with equal
 * jitter (contract 8.4). Failures become the generated exceptions, go to the debug channel, and a
 * failure the user must fix (an unreachable address, a rejected key) shows one warning per kind.
 */
final class Delivery
{
    /**
     * @param \Closure(): float $now
     * @param \Closure(int): void $sleep
     * @param \Closure(): float $random
     */
    public function __construct(
        private readonly string $serviceUrl,
        private readonly bool $hideApiResponse,
        private readonly int $timeoutMs,
        private readonly Credentials $credentials,
        private readonly ?Sealer $sealer,
        private readonly Transport $transport,
        private readonly Debug $debug,
        private readonly \Closure $now,
        private readonly \Closure $sleep,
        private readonly \Closure $random,
    ) {
    }

    /**
     * One report, retried as the contract says. With a `$deadline` (milliseconds on the client's
     * clock) no attempt outlives it: the last one gets what is left of the time, and a report the
     * deadline cuts short comes back with `requeue`, neither delivered nor failed.
     *
     * @param array<string, mixed> $payload
     */
    public function deliver(array $payload, int $maxRetries, ?float $deadline): Outcome
    {
        $json = Text::json($payload);
        $body = $this->sealer?->seal($json) ?? $json;
        $error = null;
        for ($retry = 0; ; $retry++) {
            $timeoutMs = $this->timeoutMs;
            if ($deadline !== null) {
                $left = (int) floor($deadline - ($this->now)());
                if ($left <= 0) {
                    return new Outcome('failed', $error ?? SvcException::fromNetworkFailure('not sent before the flush deadline'), requeue: true);
                }
                $timeoutMs = min($timeoutMs, $left);
            }
            $headers = ['Content-Type' => 'application/json', 'Accept' => 'application/json'];
            if ($this->hideApiResponse) {
                $headers['X-Svc-Hide-Response'] = 'true';
            }
            $headers += $this->credentials->headers($body, (int) floor(($this->now)() / 1000));
            $result = $this->transport->post($this->serviceUrl . Service::TASKS_PATH, $headers, $body, $timeoutMs);
            if ($result->redirectedTo !== null) {
                $this->warnRedirect($result->redirectedTo);
            }
            $decoded = json_decode($result->body, true);
            if ($result->status !== null && $result->status >= 200 && $result->status < 300) {
                $outcome = Outcome::fromBody($decoded);
                $this->debug->debug("delivered: {$outcome->bucket} (HTTP {$result->status})");
                return $outcome;
            }
            $error = $result->status === null
                ? SvcException::fromNetworkFailure(
                    $result->failure === HttpResult::TIMEOUT ? "request timed out after {$timeoutMs} ms" : 'network error',
                    new \RuntimeException($result->error),
                )
                : SvcException::fromResponse($result->status, $decoded, $result->retryAfter);
            if ($result->failure === HttpResult::TIMEOUT && $timeoutMs < $this->timeoutMs) {
                $error = SvcException::fromNetworkFailure('no answer before the flush deadline', new \RuntimeException($result->error));
                $this->debug->debug('attempt ' . ($retry + 1) . ' cut short:', $error);
                return new Outcome('failed', $error, requeue: true);
            }
            $again = Retry::isRetryable($result->status) && $result->failure !== HttpResult::REDIRECT && $retry < $maxRetries;
            $this->warnOnce($result, $decoded, !$again);
            $this->debug->debug('attempt ' . ($retry + 1) . ' failed' . ($again ? ', will retry:' : ':'), $error);
            if (!$again) {
                return new Outcome('failed', $error, exhausted: Retry::isRetryable($result->status));
            }
            $wait = $this->backoffMs($retry, Retry::parseRetryAfter($result->retryAfter));
            if ($deadline !== null && ($this->now)() + $wait > $deadline) {
                return new Outcome('failed', $error, requeue: true);
            }
            ($this->sleep)($wait);
        }
    }

    /**
     * The one warning of reports given up at shutdown (or at a deadline the caller set): how
     * many, the address, and why. Shares its kind with the no-answer warning, so a service that
     * never answers costs the host one line.
     */
    public function warnGivenUp(int $count, int $budgetMs, ?SvcException $last): void
    {
        $why = $last === null ? 'the time ran out' : 'last failure: ' . $last->getMessage();
        $this->debug->warn(
            "{$count} report(s) not delivered to {$this->serviceUrl} within {$budgetMs} ms (timeoutMs) at shutdown ({$why}): given up so the process can exit",
            'unreachable',
        );
    }

    /** Retry-After verbatim when numeric, else exponential from the base with equal jitter, capped. */
    public function backoffMs(int $retry, ?int $retryAfterSeconds): int
    {
        if ($retryAfterSeconds !== null) {
            return $retryAfterSeconds * 1000;
        }
        $step = min(Retry::BACKOFF_CAP_MS, Retry::BACKOFF_BASE_MS * 2 ** min($retry, 30));
        return (int) round($step / 2 + ($this->random)() * ($step / 2));
    }

    /** Reports are delivered, but through a redirect: one warning, with the address to set instead. */
    private function warnRedirect(string $finalUrl): void
    {
        $base = str_ends_with($finalUrl, Service::TASKS_PATH) ? substr($finalUrl, 0, -\strlen(Service::TASKS_PATH)) : $finalUrl;
        $this->debug->warn(
            "{$this->serviceUrl} redirects to {$finalUrl}: reports are delivered, each through an extra request; set " . Service::URL_ENV . " to {$base}",
            'redirected',
        );
    }

    /** One visible warning per kind of failure the user must fix, with the address and the fix. */
    private function warnOnce(HttpResult $result, mixed $body, bool $final): void
    {
        $at = $this->serviceUrl;
        $fix = 'set ' . Service::URL_ENV . ' (or the serviceUrl argument) to the address of your Svc service';
        $host = (string) parse_url($at, PHP_URL_HOST);
        [$kind, $message] = match (true) {
            $result->failure === HttpResult::DNS => ['dns', "cannot resolve {$host} ({$at}): reports are not delivered; {$fix}"],
            $result->failure === HttpResult::CONNECT => ['connect', "cannot connect to {$at}: reports are not delivered; is the service running? Otherwise {$fix}"],
            $result->failure === HttpResult::TLS => ['tls', "TLS failure talking to {$at} ({$result->error}): reports are not delivered; check the service's certificate and the address scheme"],
            $result->failure === HttpResult::TIMEOUT && $final => ['unreachable', "no answer from {$at} within timeoutMs ({$this->timeoutMs} ms): reports are not delivered; is the service overloaded, or is {$host} the right host?"],
            $result->failure === HttpResult::REDIRECT => ['redirect', "{$at} redirects in a way that cannot be followed ({$result->error}): reports are not delivered; {$fix}"],
            $result->status !== null && $result->status >= 300 && $result->status < 400 => ['redirect', "{$at} answered {$result->status} without a usable Location: reports are not delivered; {$fix}"],
            $result->status === 401 => ['401', "the service at {$at} rejected the credentials (401): check SERVICE_API_KEY, or SERVICE_KEY_ID and SERVICE_SIGNING_SECRET (revoked key? server clock more than 300 s off?)"],
            $result->status === 403 => ['403', "the service at {$at} refused the request's origin (403): allow it on the publishable key, or use a secret key (SERVICE_KEY_ID + SERVICE_SIGNING_SECRET) on servers"],
            $result->status === 404 => ['404', "{$at} answered 404 for " . Service::TASKS_PATH . ": it is not a Svc service; {$fix}"],
            $result->status === 422 && $this->sealer !== null && !isset($body['errors']) => ['decrypt', "the service at {$at} could not decrypt the report (422): check SERVICE_ENCRYPTION_PUBLIC_KEY and SERVICE_ENCRYPTION_KEY_ID"],
            default => [null, null],
        };
        if ($kind !== null) {
            $this->debug->warn($message, $kind);
        }
    }
}
