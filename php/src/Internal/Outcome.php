<?php

declare(strict_types=1);

namespace Svc\Internal;

use Svc\Exception\SvcException;

/** How the delivery of one report ended. */
final class Outcome
{
    /**
     * @param string $bucket sent, deduplicated, failed, quota, paused or archived
     * @param bool $exhausted failed on a retryable failure after every retry (the service looks unreachable)
     * @param bool $requeue not finished before the flush deadline: back to the head of the queue
     */
    public function __construct(
        public readonly string $bucket,
        public readonly ?SvcException $error = null,
        public readonly bool $exhausted = false,
        public readonly bool $requeue = false,
    ) {
    }

    /** The bucket of a 2xx answer: `dropped` (or its legacy alias) first; absent `deduplicated` is false. */
    public static function fromBody(mixed $body): self
    {
        if (\is_array($body) && (($body['dropped'] ?? null) === true || ($body['quota_exceeded'] ?? null) === true)) {
            $reason = $body['reason'] ?? null;
            return new self($reason === 'paused' || $reason === 'archived' ? $reason : 'quota');
        }
        return new self(\is_array($body) && ($body['deduplicated'] ?? null) === true ? 'deduplicated' : 'sent');
    }
}
