<?php

declare(strict_types=1);

namespace Svc\Internal;

use Svc\Exception\SvcException;

/**
 * How one delivery ended: the service took the report (sent, deduplicated, or dropped it: quota,
 * paused, archived), refused it for good (`failed`: a 4xx, a redirect that cannot be followed), or
 * did not take it (`unavailable`: no answer, a refused connection, 429 or 5xx, a dropped connection;
 * the report stays at the head of the queue).
 */
final class Outcome
{
    public const UNAVAILABLE = 'unavailable';

    /**
     * @param string $bucket sent, deduplicated, failed, quota, paused, archived or unavailable
     * @param string|null $failure unavailable: the network failure kind (`HttpResult::TIMEOUT`...), or null for a 429/5xx answer
     * @param int|null $status unavailable: the 429/5xx status
     * @param int|null $retryAfterMs unavailable: the service's `Retry-After`
     * @param int $timeoutMs unavailable on a timeout: the limit of the attempt that timed out
     * @param bool $cutShort unavailable: stopped by the time it was given (a deadline), not by the service
     * @param int $attempts attempts this delivery made
     */
    public function __construct(
        public readonly string $bucket,
        public readonly ?SvcException $error = null,
        public readonly ?string $failure = null,
        public readonly ?int $status = null,
        public readonly ?int $retryAfterMs = null,
        public readonly int $timeoutMs = 0,
        public readonly bool $cutShort = false,
        public readonly int $attempts = 1,
    ) {
    }

    /** The bucket of a 2xx answer: `dropped` (or its legacy alias) first; absent `deduplicated` is false. */
    public static function fromBody(mixed $body, int $attempts = 1): self
    {
        if (\is_array($body) && (($body['dropped'] ?? null) === true || ($body['quota_exceeded'] ?? null) === true)) {
            $reason = $body['reason'] ?? null;
            return new self($reason === 'paused' || $reason === 'archived' ? $reason : 'quota', attempts: $attempts);
        }
        return new self(\is_array($body) && ($body['deduplicated'] ?? null) === true ? 'deduplicated' : 'sent', attempts: $attempts);
    }

    /** The service took or refused the report: it answered for it, so it is reachable. */
    public function settled(): bool
    {
        return $this->bucket !== self::UNAVAILABLE;
    }

    /** Met no service at all: refused, unresolvable, TLS, or no answer in the attempt's full time. */
    public function noService(): bool
    {
        return \in_array($this->failure, [HttpResult::CONNECT, HttpResult::DNS, HttpResult::TLS], true)
            || ($this->failure === HttpResult::TIMEOUT && !$this->cutShort);
    }
}
