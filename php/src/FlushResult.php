<?php

declare(strict_types=1);

namespace Svc;

use Svc\Exception\SvcException;

/**
 * What became of the reports since the previous flush result; each report lands in one bucket.
 * `errors` holds the exception of every failed report of this flush (`AuthException`, ...);
 * `pending` counts the reports still queued, and `unavailable` says why when the service counts as
 * unreachable.
 */
final class FlushResult
{
    /**
     * @param int $sent accepted as a new card (201)
     * @param int $deduplicated accepted and folded into an existing card (200, `deduplicated: true`)
     * @param int $failed not retryable (4xx), retries used up, or given up at exit
     * @param array{quota: int, paused: int, archived: int, overflow: int, sampled: int, beforeSend: int} $dropped
     *        dropped by the service (quota, paused, archived), the queue bound, `sampleRate` or `beforeSend`
     * @param list<SvcException> $errors
     * @param int $pending still queued after this flush: for the next flush, or the shutdown
     * @param SvcException|null $unavailable why they wait when the service counts as unreachable
     *        (no answer within `timeoutMs`, a refused connection, 429 or 5xx after the retries)
     */
    public function __construct(
        public readonly int $sent,
        public readonly int $deduplicated,
        public readonly int $failed,
        public readonly array $dropped,
        public readonly array $errors,
        public readonly int $pending = 0,
        public readonly ?SvcException $unavailable = null,
    ) {
    }

    /**
     * The counts as the TypeScript SDK's flush result has them (without `errors`).
     *
     * @return array{sent: int, deduplicated: int, failed: int, dropped: array<string, int>}
     */
    public function toArray(): array
    {
        return ['sent' => $this->sent, 'deduplicated' => $this->deduplicated, 'failed' => $this->failed, 'dropped' => $this->dropped];
    }
}
