<?php

declare(strict_types=1);

namespace Svc\Internal;

use Svc\Exception\SvcException;
use Svc\Generated\Retry;
use Svc\Generated\Service;

/**
 * Delivers one report: the exact bytes (sealed first when encrypting), one POST per attempt,
 * re-signed with a fresh timestamp on every attempt, retried on 429, 5xx and dropped connections
 * only (contract 7), waiting a numeric `Retry-After` verbatim or else exponential backoff with equal
 * jitter (contract 8.4), never past the time it is given. An attempt that meets no service (a
 * refused connection, an unknown host, TLS, no answer in time) is not retried: the service counts
 * as unreachable (`Reachability`), and a refused connection costs no backoff sleeps. Failures become
 * the generated exceptions and go to the debug channel; a failure of the report itself the user
 * must fix (a rejected key, a wrong address) shows one warning per kind (`Warnings`).
 */
final class Delivery
{
    /**
     * An attempt that timed out with at least its limit minus this counts as a full attempt (a
     * flush of `timeoutMs` spends a few milliseconds before its first attempt starts).
     */
    private const FULL_ATTEMPT_SLACK_MS = 50;

    /**
     * @param \Closure(): float $now
     * @param \Closure(int): void $sleep
     * @param \Closure(): float $random
     */
    public function __construct(
        private readonly string $serviceUrl,
        private readonly bool $hideApiResponse,
        private readonly Credentials $credentials,
        private readonly ?Sealer $sealer,
        private readonly Transport $transport,
        private readonly Debug $debug,
        public readonly Warnings $warnings,
        private readonly \Closure $now,
        private readonly \Closure $sleep,
        private readonly \Closure $random,
    ) {
    }

    /**
     * One report, with at most `$retries` retries, each attempt at most `$attemptMs` long, and no
     * attempt or sleep past `$limitAt` (ms on the client's clock).
     *
     * @param array<string, mixed> $payload
     */
    public function deliver(array $payload, int $retries, int $attemptMs, float $limitAt): Outcome
    {
        $json = Text::json($payload);
        $body = $this->sealer?->seal($json) ?? $json;
        for ($attempt = 1; ; $attempt++) {
            $timeoutMs = min($attemptMs, (int) floor($limitAt - ($this->now)()));
            if ($timeoutMs <= 0) {
                $error = SvcException::fromNetworkFailure('not sent: no time left in this flush');
                return new Outcome(Outcome::UNAVAILABLE, $error, HttpResult::TIMEOUT, timeoutMs: 0, cutShort: true, attempts: $attempt - 1);
            }
            $result = $this->post($body, $timeoutMs);
            $decoded = json_decode($result->body, true);
            if ($result->status !== null && $result->status >= 200 && $result->status < 300) {
                $outcome = Outcome::fromBody($decoded, $attempt);
                $this->debug->debug("delivered: {$outcome->bucket} (HTTP {$result->status})");
                return $outcome;
            }
            $error = self::error($result, $decoded, $timeoutMs);
            if (!Retry::isRetryable($result->status) || $result->failure === HttpResult::REDIRECT) {
                $this->warnings->answered($result, $decoded, $this->sealer !== null);
                $this->debug->debug("attempt {$attempt} failed:", $error);
                return new Outcome('failed', $error, attempts: $attempt);
            }
            $retryAfter = Retry::parseRetryAfter($result->retryAfter);
            $missed = new Outcome(
                Outcome::UNAVAILABLE,
                $error,
                $result->failure,
                $result->status,
                $retryAfter === null ? null : $retryAfter * 1000,
                $result->failure === HttpResult::TIMEOUT ? $timeoutMs : 0,
                $result->failure === HttpResult::TIMEOUT && $timeoutMs < $attemptMs - self::FULL_ATTEMPT_SLACK_MS,
                $attempt,
            );
            if ($missed->noService() || $missed->cutShort || $attempt > $retries) {
                $this->debug->debug("attempt {$attempt} failed:", $error);
                return $missed;
            }
            $wait = $this->backoffMs($attempt - 1, $retryAfter);
            if (($this->now)() + $wait > $limitAt) {
                $this->debug->debug("attempt {$attempt} failed, the retry in {$wait} ms does not fit:", $error);
                return new Outcome(Outcome::UNAVAILABLE, $error, $result->failure, $result->status, $missed->retryAfterMs, cutShort: true, attempts: $attempt);
            }
            $this->debug->debug("attempt {$attempt} failed, will retry:", $error);
            ($this->sleep)($wait);
        }
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

    private function post(string $body, int $timeoutMs): HttpResult
    {
        $headers = ['Content-Type' => 'application/json', 'Accept' => 'application/json'];
        if ($this->hideApiResponse) {
            $headers['X-Svc-Hide-Response'] = 'true';
        }
        $headers += $this->credentials->headers($body, (int) floor(($this->now)() / 1000));
        $result = $this->transport->post($this->serviceUrl . Service::TASKS_PATH, $headers, $body, $timeoutMs);
        if ($result->redirectedTo !== null) {
            $this->warnings->redirected($result->redirectedTo);
        }
        return $result;
    }

    private static function error(HttpResult $result, mixed $decoded, int $timeoutMs): SvcException
    {
        return $result->status === null
            ? SvcException::fromNetworkFailure(
                $result->failure === HttpResult::TIMEOUT ? "request timed out after {$timeoutMs} ms" : 'network error',
                new \RuntimeException($result->error),
            )
            : SvcException::fromResponse($result->status, $decoded, $result->retryAfter);
    }
}
