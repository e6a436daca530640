<?php

declare(strict_types=1);

namespace Svc\Internal;

use Svc\Exception\SvcException;
use Svc\FlushResult;

/** The outcome counters behind `flush()`'s result, and the cumulative overflow count. */
final class Tally
{
    private const EMPTY = ['sent' => 0, 'deduplicated' => 0, 'failed' => 0];

    private const EMPTY_DROPPED = ['quota' => 0, 'paused' => 0, 'archived' => 0, 'overflow' => 0, 'sampled' => 0, 'beforeSend' => 0];

    /** @var array<string, int> */
    private array $counts = self::EMPTY;

    /** @var array{quota: int, paused: int, archived: int, overflow: int, sampled: int, beforeSend: int} */
    private array $dropped = self::EMPTY_DROPPED;

    /** @var list<SvcException> */
    private array $errors = [];

    /** Reports dropped because the queue was full, since the client was created. */
    public int $overflowTotal = 0;

    public function count(string $bucket, ?SvcException $error = null): void
    {
        if (isset($this->dropped[$bucket])) {
            $this->dropped[$bucket]++;
            $this->overflowTotal += $bucket === 'overflow' ? 1 : 0;
        } else {
            $this->counts[$bucket]++;
        }
        if ($error !== null) {
            $this->errors[] = $error;
        }
    }

    /**
     * The counts since the previous result, then zero.
     *
     * @param int $pending reports still queued
     * @param SvcException|null $unavailable why they wait, when the service counts as unreachable
     */
    public function take(int $pending = 0, ?SvcException $unavailable = null): FlushResult
    {
        $result = new FlushResult($this->counts['sent'], $this->counts['deduplicated'], $this->counts['failed'], $this->dropped, $this->errors, $pending, $unavailable);
        [$this->counts, $this->dropped, $this->errors] = [self::EMPTY, self::EMPTY_DROPPED, []];
        return $result;
    }
}
