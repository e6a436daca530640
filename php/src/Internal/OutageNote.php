<?php

declare(strict_types=1);

namespace Svc\Internal;

use Svc\Exception\SvcException;

/**
 * What the processes of one host know about a service that does not take reports: a small file in
 * the system's temporary directory, one per service address, written when a client finds the
 * service unreachable and deleted when a client finds it back. PHP-FPM (and every CLI run) starts
 * each request with nothing in memory, so without it every request that reports would spend the
 * exit budget again on a hung service, and a pool of FPM workers would be held `timeoutMs` per
 * failing request; with it, a request that sees the note sends nothing until the note's probe time,
 * and the first to reach that time claims the probe for the others. A note that cannot be read or
 * written changes nothing (each process keeps its own budget); a note further than
 * `MAX_AHEAD_MS` in the future is ignored.
 *
 * @internal
 */
final class OutageNote
{
    /** A note never holds reports back longer than this (a clock step, or a forged file). */
    private const MAX_AHEAD_MS = 10 * 60_000;

    private readonly string $file;

    public function __construct(string $directory, string $serviceUrl)
    {
        $this->file = rtrim($directory, '/') . '/svc-php-outage-' . substr(sha1($serviceUrl), 0, 16) . '.json';
    }

    /**
     * The outage another process saw, or null.
     *
     * @return array{since: float, probeAt: float, cause: Outcome}|null
     */
    public function read(float $now): ?array
    {
        try {
            $text = is_file($this->file) ? @file_get_contents($this->file) : false;
            $note = \is_string($text) ? json_decode($text, true) : null;
            if (!\is_array($note) || !\is_float($note['since'] ?? null) && !\is_int($note['since'] ?? null)
                || !\is_float($note['probeAt'] ?? null) && !\is_int($note['probeAt'] ?? null)
                || $note['probeAt'] > $now + self::MAX_AHEAD_MS) {
                return null;
            }
            $cause = new Outcome(
                Outcome::UNAVAILABLE,
                SvcException::fromNetworkFailure((string) ($note['message'] ?? 'unreachable'), new \RuntimeException((string) ($note['detail'] ?? ''))),
                \is_string($note['failure'] ?? null) ? $note['failure'] : null,
                \is_int($note['status'] ?? null) ? $note['status'] : null,
                \is_int($note['retryAfterMs'] ?? null) ? $note['retryAfterMs'] : null,
                \is_int($note['timeoutMs'] ?? null) ? $note['timeoutMs'] : 0,
            );
            return ['since' => (float) $note['since'], 'probeAt' => (float) $note['probeAt'], 'cause' => $cause];
        } catch (\Throwable) {
            return null;
        }
    }

    /** The service is unreachable since `$since` (ms since the epoch); the next probe not before `$probeAt`. */
    public function write(float $since, float $probeAt, Outcome $cause): void
    {
        $note = [
            'since' => $since,
            'probeAt' => $probeAt,
            'failure' => $cause->failure,
            'status' => $cause->status,
            'retryAfterMs' => $cause->retryAfterMs,
            'timeoutMs' => $cause->timeoutMs,
            'message' => $cause->error?->getMessage(),
            'detail' => $cause->error?->getPrevious()?->getMessage(),
        ];
        try {
            $temporary = $this->file . '.' . bin2hex(random_bytes(4));
            if (@file_put_contents($temporary, json_encode($note, JSON_PARTIAL_OUTPUT_ON_ERROR | JSON_INVALID_UTF8_SUBSTITUTE)) !== false) {
                @rename($temporary, $this->file) || @unlink($temporary);
            }
        } catch (\Throwable) {
            // Without a note each process keeps its own budget.
        }
    }

    /** The service answered: nobody needs to wait. */
    public function clear(): void
    {
        if (is_file($this->file)) {
            @unlink($this->file);
        }
    }
}
