<?php

declare(strict_types=1);

namespace Svc\Internal;

/**
 * Whether the service takes reports, and the exit budget: how long one client may hold its host
 * on a service that does not take them. Every delivery that ends without the service taking or
 * refusing the report (no answer, a refused connection, 429, 5xx, a dropped connection) spends its
 * wall time, backoff sleeps included, from one budget of `timeoutMs`; an answer that settles a
 * report (2xx, or a 4xx for that report alone) proves the service back and renews it.
 *
 * The service counts as unreachable after an attempt that met no service at all (refused,
 * unresolvable, TLS, no answer within `timeoutMs`), after a report used up its retries, or when the
 * budget is spent. Then no flush sends anything until a probe is due: one attempt of the report at
 * the head of the queue, at most `PROBE_TIMEOUT_MS` long, once `PROBE_INTERVAL_MS` passed since
 * the last attempt (or the service's `Retry-After`, when it sent one). So a process that lives
 * less than 30 s after the first failure is held at most `timeoutMs` in all, and a worker that runs
 * for days at most one short probe every 30 s, and delivers again within 30 s of the service coming
 * back. The processes of one host share what they found (`OutageNote`).
 *
 * @internal
 */
final class Reachability
{
    /** Time between two probes of a service that counts as unreachable. */
    public const PROBE_INTERVAL_MS = 30_000;

    /** A probe's own limit: it holds the host at most this long. */
    public const PROBE_TIMEOUT_MS = 1_000;

    /** When the service stopped taking reports (ms on the client's clock); null: it takes them. */
    private ?float $downSince = null;

    /** No attempt before this while unreachable (ms on the client's clock). */
    private float $nextProbeAt = 0.0;

    /** Wall time spent on deliveries the service did not take, since it last took or refused one. */
    private float $spentMs = 0.0;

    /** Why the service counts as unreachable: the last failed delivery. */
    private ?Outcome $cause = null;

    /** Reports lost while unreachable (a full queue dropped them). */
    private int $lost = 0;

    /** A probe failed in this outage (the outage is told once, then). */
    private bool $probedInVain = false;

    /** The outage was found by another process (`OutageNote`), not by this one. */
    private bool $adopted = false;

    /** @param \Closure(): float $now milliseconds */
    public function __construct(private readonly int $budgetMs, private readonly \Closure $now)
    {
    }

    public function isDown(): bool
    {
        return $this->downSince !== null;
    }

    /** Unreachable, and a probe is due now. */
    public function probeDue(): bool
    {
        return $this->downSince !== null && ($this->now)() >= $this->nextProbeAt;
    }

    /** What is left of the budget, in milliseconds. */
    public function budgetLeftMs(): float
    {
        return max(0.0, $this->budgetMs - $this->spentMs);
    }

    public function spentMs(): int
    {
        return (int) round($this->spentMs);
    }

    public function cause(): ?Outcome
    {
        return $this->cause;
    }

    public function adopted(): bool
    {
        return $this->adopted;
    }

    public function downSince(): ?float
    {
        return $this->downSince;
    }

    public function nextProbeAt(): float
    {
        return $this->nextProbeAt;
    }

    /** An outage another process of this host found (`OutageNote`): no attempt before its probe time. */
    public function adopt(float $since, float $probeAt, Outcome $cause): void
    {
        $this->adopted = $this->adopted || $this->downSince === null;
        $this->downSince = min($since, $this->downSince ?? $since);
        [$this->nextProbeAt, $this->cause] = [$probeAt, $this->cause ?? $cause];
    }

    /** This process makes the probe: the others wait another interval. Returns the new probe time. */
    public function claimProbe(): float
    {
        return $this->nextProbeAt = ($this->now)() + self::PROBE_INTERVAL_MS;
    }

    /** How long the service has been unreachable, in milliseconds (0 when it is not). */
    public function downForMs(): int
    {
        return $this->downSince === null ? 0 : (int) round(($this->now)() - $this->downSince);
    }

    public function lost(): int
    {
        return $this->lost;
    }

    /** The lost reports were told (in the exit's warning). */
    public function toldLost(): void
    {
        $this->lost = 0;
    }

    /** A report dropped (the queue full, or its retries used up): lost to the outage when the service is unreachable. */
    public function dropped(): void
    {
        if ($this->downSince !== null) {
            $this->lost++;
        }
    }

    /**
     * The service took or refused a report: it is back, the budget renews. Returns what the outage
     * that ends cost (its length and the reports it lost), or null when there was none.
     *
     * @return array{int, int}|null
     */
    public function answered(): ?array
    {
        $ended = $this->downSince === null ? null : [$this->downForMs(), $this->lost];
        [$this->downSince, $this->spentMs, $this->cause, $this->lost, $this->probedInVain, $this->adopted] = [null, 0.0, null, 0, false, false];
        return $ended;
    }

    /**
     * A delivery the service did not take, which took `$elapsedMs`. `$final`: the service counts as
     * unreachable now (else a flush deadline cut the delivery short and the next flush goes on).
     * Returns true the first time a probe fails in this outage (a long-running process tells it).
     */
    public function missed(Outcome $outcome, float $elapsedMs, bool $final): bool
    {
        $now = ($this->now)();
        $this->spentMs += max(0.0, $elapsedMs);
        $this->cause = $outcome;
        if (!$final && $this->spentMs + 1 < $this->budgetMs) {
            return false;
        }
        $wasDown = $this->downSince !== null;
        $this->downSince ??= $now - max(0.0, $elapsedMs);
        $this->nextProbeAt = $now + ($outcome->retryAfterMs ?? self::PROBE_INTERVAL_MS);
        if ($wasDown && !$this->probedInVain) {
            return $this->probedInVain = true;
        }
        return false;
    }
}
