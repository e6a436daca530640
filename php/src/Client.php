<?php

declare(strict_types=1);

namespace Svc;

use Svc\Generated\Options;
use Svc\Generated\ReportingMethods;
use Svc\Internal\BeforeSend;
use Svc\Internal\Config;
use Svc\Internal\Debug;
use Svc\Internal\Deps;
use Svc\Internal\Describe;
use Svc\Internal\Location;
use Svc\Internal\Outbox;
use Svc\Internal\Payload;
use Svc\Internal\Shutdown;
use Svc\Internal\Tally;
use Svc\Internal\Wiring;

/**
 * The Svc client: the 16 reporting methods (`$svc->majorHigh('Checkout failed', $e)`), `flush()`
 * and `droppedCount()`. Reports are queued by the reporting call and delivered at `flush()` and at
 * shutdown (all of it within `timeoutMs`). Nothing a client does throws into the host: failures go
 * to the debug channel.
 *
 * @phpstan-import-type SvcOptions from Options
 */
class Client
{
    use ReportingMethods;

    /** The package version, sent in the User-Agent. */
    public const VERSION = '0.1.0';

    private bool $active = false;

    /** @var list<string> */
    private array $baseTags = [];

    private bool $flushing = false;

    private readonly Tally $tally;

    private Config $config;

    private Debug $debug;

    /** The queue and its delivery; null when the client cannot send. */
    private ?Outbox $outbox = null;

    private ?Describe $describe = null;

    private ?Location $location = null;

    /** @var \Closure(): float */
    private \Closure $random;

    /** @var \Closure(): float milliseconds */
    private \Closure $now;

    private bool $shutdownHook = true;

    /** Hot-path copies of options read on every report. */
    private float $sampleRate = 1.0;

    private int $maxQueueSize = 0;

    /** @var callable|null */
    private $beforeSendHook = null;

    /**
     * Creates a client. Never throws: a misconfigured client warns once and sends nothing.
     *
     * @param SvcOptions $options contract 8.5 options, camelCase or snake_case
     * @param string|null $serviceUrl the service address when `SERVICE_URL` is not set (default: the generated `Service::URL`)
     * @param Deps|null $deps internal test seam
     */
    public static function create(mixed $options = [], mixed $serviceUrl = null, ?Deps $deps = null): static
    {
        return new static(\is_array($options) ? $options : [], $serviceUrl, $deps ?? new Deps());
    }

    /**
     * Creates a client whose credentials come from the environment (`SERVICE_API_KEY`, or
     * `SERVICE_KEY_ID` + `SERVICE_SIGNING_SECRET`, and `SERVICE_ENCRYPTION_PUBLIC_KEY` /
     * `SERVICE_ENCRYPTION_KEY_ID`); `$options` set anything else and win over the environment.
     *
     * @param SvcOptions $options
     * @param Deps|null $deps internal test seam
     */
    public static function fromEnvironment(mixed $options = [], mixed $serviceUrl = null, ?Deps $deps = null): static
    {
        $deps ??= new Deps();
        $env = $deps->env ?? Deps::environment(...);
        $fromEnv = [];
        foreach (Options::ENV as $option => $variable) {
            $value = $env($variable);
            if ($value !== null) {
                $fromEnv[$option] = $value;
            }
        }
        return static::create((\is_array($options) ? $options : []) + $fromEnv, $serviceUrl, $deps);
    }

    /** @param array<mixed> $options */
    final private function __construct(array $options, mixed $serviceUrl, Deps $deps)
    {
        $this->tally = new Tally();
        $this->config = new Config($options);
        $this->random = $deps->random ?? static fn (): float => mt_rand() / (mt_getrandmax() + 1);
        $this->now = $deps->now ?? static fn (): float => microtime(true) * 1000;
        $this->shutdownHook = $deps->shutdownHook;
        $this->sampleRate = $this->config->float('sampleRate');
        $this->maxQueueSize = $this->config->int('maxQueueSize');
        $this->beforeSendHook = $this->config->values['beforeSend'];
        $secrets = array_values(array_filter([$this->config->string('apiKey'), $this->config->string('signingSecret')]));
        $this->debug = new Debug($deps->logger ?? Debug::errorLog(), $this->config->bool('debug'), $secrets);
        try {
            if ($this->config->bool('enabled')) {
                $wiring = Wiring::build($this->config, $this->debug, $deps, $serviceUrl, $this->now, $this->random, 'svc-php/' . self::VERSION . ' PHP/' . PHP_VERSION);
                [$this->describe, $this->location, $this->baseTags] = [$wiring->describe, $wiring->location, $wiring->baseTags];
                $this->outbox = new Outbox($wiring->delivery, $this->tally, $this->debug, $this->config->int('timeoutMs'), $this->config->int('maxRetries'), $this->config->bool('logLocally'), $this->now, $wiring->outageNote);
                $this->active = $wiring->ready;
            }
        } catch (\Throwable $error) {
            $this->debug->warn('client disabled: ' . $error->getMessage());
        }
        foreach ($this->config->notes as $note) {
            $this->debug->debug($note);
        }
        $this->debug->debug('client created', ['active' => $this->active, 'options' => array_keys($options)]);
    }

    /**
     * Sends everything queued now, sequentially, and returns what became of the reports since the
     * previous result. With `$timeoutMs`, no attempt runs past that long: what is not done stays
     * queued for the next flush (or shutdown). While the service counts as unreachable (it did not
     * answer within `timeoutMs`, refused the connection, or the exit budget is spent) nothing is
     * sent but one short probe a minute: the reports wait (`pending`). Never throws; a `$timeoutMs`
     * that is not a number counts as none.
     */
    public function flush(mixed $timeoutMs = null): FlushResult
    {
        $budget = \is_int($timeoutMs) || (\is_float($timeoutMs) && is_finite($timeoutMs)) ? (int) max(0, $timeoutMs) : null;
        $this->run(fn () => $this->outbox?->drain($budget === null ? null : ($this->now)() + $budget));
        return $this->result();
    }

    /**
     * The shutdown flush: what is queued is delivered within `timeoutMs` counted from
     * `$startedAtMs` (when PHP began shutting down) and within what is left of the exit budget, so
     * a service that never answers holds the process at most `timeoutMs` in its whole life; what is
     * given up is counted as failed and told in one warning (count, address, cause, time spent).
     * Called by the shutdown hook.
     */
    private function flushAtShutdown(?float $startedAtMs = null): FlushResult
    {
        $this->run(function () use ($startedAtMs): void {
            $this->outbox?->drain(($startedAtMs ?? ($this->now)()) + $this->config->int('timeoutMs'), atExit: true);
            $this->outbox?->giveUp();
        });
        return $this->result();
    }

    /** Reports dropped because the queue was full (`maxQueueSize`), since the client was created. */
    public function droppedCount(): int
    {
        return $this->tally->overflowTotal;
    }

    /** Runs one drain unless one is running (a report made while flushing waits for the next). */
    private function run(\Closure $drain): void
    {
        if ($this->flushing) {
            return;
        }
        $this->flushing = true;
        try {
            $drain();
        } catch (\Throwable $error) {
            $this->debug->debug('flush failed:', $error);
        } finally {
            $this->flushing = false;
            if ($this->queued() === 0) {
                Shutdown::release($this);
            }
        }
    }

    private function result(): FlushResult
    {
        $result = $this->tally->take($this->queued(), $this->outbox?->waitingFor());
        $this->debug->debug('flush result', $result->toArray() + ['pending' => $result->pending]);
        return $result;
    }

    private function queued(): int
    {
        return $this->outbox?->count() ?? 0;
    }

    protected function record(string $severity, string $priority, mixed $title, mixed $description, mixed $tags): void
    {
        try {
            if (!$this->active || $this->describe === null) {
                return;
            }
            if ($this->sampleRate < 1 && ($this->random)() >= $this->sampleRate) {
                $this->tally->count('sampled');
                return;
            }
            if ($this->queued() >= $this->maxQueueSize) {
                $this->tally->count('overflow');
                $this->outbox?->reachability->dropped();
                $this->debug->debug("queue full (maxQueueSize {$this->maxQueueSize}): newest report dropped");
                return;
            }
            $payload = Payload::build($severity, $priority, $title, $description, $tags, $this->baseTags, $this->describe);
            if ($this->location !== null) {
                $payload += $this->location->locate($description);
            }
            if ($this->beforeSendHook !== null) {
                $payload = BeforeSend::apply($this->beforeSendHook, $payload, $this->tally, $this->debug);
                if ($payload === null) {
                    return;
                }
            }
            $this->enqueue($payload, $description);
        } catch (\Throwable $error) {
            $this->debug->debug('report failed:', $error);
        }
    }

    /**
     * Takes one finished payload (after sampling, the queue bound, location and `beforeSend`) into
     * the queue; `$description` is what the reporting call was given. The test fake records here.
     *
     * @param array<string, mixed> $payload
     */
    protected function enqueue(array $payload, mixed $description): void
    {
        $this->outbox?->push($payload);
        if ($this->shutdownHook && $this->queued() === 1) {
            Shutdown::hold($this, fn (float $startedAtMs) => $this->flushAtShutdown($startedAtMs));
        }
    }
}
