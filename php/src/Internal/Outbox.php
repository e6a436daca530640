<?php

declare(strict_types=1);

namespace Svc\Internal;

use Svc\Exception\SvcException;

/**
 * The queue of one client and its delivery, in order, within the exit budget (`Reachability`):
 * while the service takes reports they go one by one (each with its retries, every attempt and
 * sleep within the flush's deadline and the budget); once it counts as unreachable nothing is sent
 * until a probe is due (one short attempt of the report at the head), and at exit what is left is
 * given up in one warning. Only the head of the queue is ever attempted, so its attempts are the
 * ones counted against `maxRetries`.
 *
 * @internal
 */
final class Outbox
{
    /** @var list<array<string, mixed>> */
    private array $queue = [];

    /** Attempts the report at the head has had. */
    private int $headAttempts = 0;

    public readonly Reachability $reachability;

    /** @param \Closure(): float $now milliseconds */
    public function __construct(
        private readonly Delivery $delivery,
        private readonly Tally $tally,
        private readonly Debug $debug,
        private readonly int $timeoutMs,
        private readonly int $maxRetries,
        private readonly bool $logLocally,
        private readonly \Closure $now,
        private readonly ?OutageNote $note = null,
    ) {
        $this->reachability = new Reachability($timeoutMs, $now);
    }

    /** @param array<string, mixed> $payload */
    public function push(array $payload): void
    {
        $this->queue[] = $payload;
    }

    public function count(): int
    {
        return \count($this->queue);
    }

    /** Delivers the queue in order; stops at `$deadline` (ms on the client's clock) with the rest queued. */
    public function drain(?float $deadline, bool $atExit = false): void
    {
        while ($this->queue !== []) {
            $now = ($this->now)();
            if ($deadline !== null && $now >= $deadline) {
                return;
            }
            if ($this->logLocally) {
                $this->debug->info('logLocally (not sent):', array_shift($this->queue));
                $this->tally->count('sent');
                continue;
            }
            $seen = $this->reachability->isDown() && !$this->reachability->probeDue() ? null : $this->note?->read($now);
            if ($seen !== null && (!$this->reachability->isDown() || $seen['probeAt'] > $now)) {
                // Another process found the service unreachable, or probes it now: wait for its time.
                $this->reachability->adopt($seen['since'], $seen['probeAt'], $seen['cause']);
            }
            $probe = $this->reachability->isDown();
            if ($probe && !$this->reachability->probeDue()) {
                return;
            }
            if ($probe) {
                $this->note?->write((float) $this->reachability->downSince(), $this->reachability->claimProbe(), $this->reachability->cause() ?? new Outcome(Outcome::UNAVAILABLE));
            }
            if (!$this->attemptHead($now, $deadline, $probe, $atExit)) {
                return;
            }
        }
    }

    /**
     * At exit: what is still queued is given up, counted failed, and told in one warning with the
     * count (the reports an outage dropped included) and the time spent.
     */
    public function giveUp(): void
    {
        $count = \count($this->queue);
        if ($count + $this->reachability->lost() === 0) {
            return;
        }
        $error = $this->reachability->cause()?->error ?? SvcException::fromNetworkFailure('not delivered within timeoutMs at exit');
        for ($i = 0; $i < $count; $i++) {
            $this->tally->count('failed', $error);
        }
        $this->warnings()->givenUp($count + $this->reachability->lost(), $this->reachability, $this->timeoutMs);
        $this->reachability->toldLost();
        [$this->queue, $this->headAttempts] = [[], 0];
    }

    /** Why the reports still queued wait: the failure that makes the service count as unreachable. */
    public function waitingFor(): ?SvcException
    {
        return $this->queue === [] ? null : $this->reachability->cause()?->error;
    }

    /** One delivery of the head report; false when the drain stops here (the head stays queued). */
    private function attemptHead(float $now, ?float $deadline, bool $probe, bool $atExit): bool
    {
        $budgetEnd = $now + ($probe ? Reachability::PROBE_TIMEOUT_MS : $this->reachability->budgetLeftMs());
        $limit = $deadline === null ? $budgetEnd : min($deadline, $budgetEnd);
        $attemptMs = $probe ? min($this->timeoutMs, Reachability::PROBE_TIMEOUT_MS) : $this->timeoutMs;
        $retries = $probe ? 0 : max(0, $this->maxRetries - $this->headAttempts);
        $outcome = $this->delivery->deliver($this->queue[0], $retries, $attemptMs, $limit);
        $this->headAttempts += $outcome->attempts;
        if ($outcome->settled()) {
            $this->settleHead($outcome);
            return true;
        }
        // Cut short by the flush's own deadline, the next flush goes on; by the budget, a probe's
        // end, or a Retry-After that does not fit, the service counts as unreachable.
        $final = !$outcome->cutShort || $probe || $budgetEnd <= ($deadline ?? INF) || $outcome->retryAfterMs !== null;
        if ($this->reachability->missed($outcome, ($this->now)() - $now, $final) && !$atExit) {
            $this->warnings()->stillDown(\count($this->queue), $this->reachability);
        }
        if ($this->reachability->isDown()) {
            $this->note?->write((float) $this->reachability->downSince(), $this->reachability->nextProbeAt(), $outcome);
        }
        if ($this->headAttempts > $this->maxRetries && $final) {
            // Its retries are used up (contract 7): given up, and counted with the outage's losses.
            array_shift($this->queue);
            $this->headAttempts = 0;
            $this->tally->count('failed', $outcome->error);
            $this->reachability->dropped();
        }
        return false;
    }

    private function settleHead(Outcome $outcome): void
    {
        array_shift($this->queue);
        $this->headAttempts = 0;
        $this->tally->count($outcome->bucket, $outcome->error);
        $ended = $this->reachability->answered();
        if ($ended !== null) {
            $this->note?->clear();
        }
        if ($ended !== null && $ended[1] > 0) {
            $this->warnings()->back($ended[0], $ended[1]);
        }
    }

    private function warnings(): Warnings
    {
        return $this->delivery->warnings;
    }
}
