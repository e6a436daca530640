<?php

declare(strict_types=1);

namespace Svc;

use Svc\Exception\SvcException;
use Svc\Generated\Options;
use Svc\Generated\ReportingMethods;
use Svc\Internal\BeforeSend;
use Svc\Internal\Config;
use Svc\Internal\Debug;
use Svc\Internal\Delivery;
use Svc\Internal\Deps;
use Svc\Internal\Describe;
use Svc\Internal\Location;
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

    /** @var list<array<string, mixed>> */
    private array $queue = [];

    /** @var list<string> */
    private array $baseTags = [];

    private bool $flushing = false;

    /** The last delivery failure of the current drain, for the shutdown warning. */
    private ?SvcException $lastError = null;

    private readonly Tally $tally;

    private Config $config;

    private Debug $debug;

    private ?Delivery $delivery = null;

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
                [$this->describe, $this->location, $this->baseTags, $this->delivery] = [$wiring->describe, $wiring->location, $wiring->baseTags, $wiring->delivery];
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
     * queued for the next flush (or shutdown). Never throws; a `$timeoutMs` that is not a number
     * counts as none.
     */
    public function flush(mixed $timeoutMs = null): FlushResult
    {
        $budget = \is_int($timeoutMs) || (\is_float($timeoutMs) && is_finite($timeoutMs)) ? (int) max(0, $timeoutMs) : null;
        $this->run(fn () => $this->drain($budget === null ? null : ($this->now)() + $budget));
        return $this->result();
    }

    /**
     * The shutdown flush: everything queued is delivered or given up within `timeoutMs` in total,
     * counted from `$startedAtMs` (when PHP began shutting down), so a service that never answers
     * holds the process at most that long; what is given up is counted as failed and named in one
     * warning with the address. Called by the shutdown hook.
     */
    private function flushAtShutdown(?float $startedAtMs = null): FlushResult
    {
        $budget = $this->config->int('timeoutMs');
        $this->run(function () use ($startedAtMs, $budget): void {
            $this->drain(($startedAtMs ?? ($this->now)()) + $budget);
            if ($this->queue === [] || $this->delivery === null) {
                return;
            }
            $count = \count($this->queue);
            $this->queue = [];
            $error = $this->lastError ?? SvcException::fromNetworkFailure('not delivered within timeoutMs at shutdown');
            for ($i = 0; $i < $count; $i++) {
                $this->tally->count('failed', $error);
            }
            $this->delivery->warnGivenUp($count, $budget, $this->lastError);
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
            if ($this->queue === []) {
                Shutdown::release($this);
            }
        }
    }

    private function result(): FlushResult
    {
        $result = $this->tally->take();
        $this->debug->debug('flush result', $result->toArray());
        return $result;
    }

    /** Delivers the queue in order; stops at `$deadline` (ms on the client's clock) with the rest queued. */
    private function drain(?float $deadline): void
    {
        if ($this->delivery === null) {
            return;
        }
        $now = $this->now;
        $this->lastError = null;
        // Once a report failed on a retryable failure after every retry, the service looks
        // unreachable: the rest of this flush gets one attempt each, so a host is never held for
        // minutes of backoff.
        $unreachable = false;
        while ($this->queue !== []) {
            if ($deadline !== null && $now() >= $deadline) {
                return;
            }
            $payload = array_shift($this->queue);
            if ($this->config->bool('logLocally')) {
                $this->debug->info('logLocally (not sent):', $payload);
                $this->tally->count('sent');
                continue;
            }
            $outcome = $this->delivery->deliver($payload, $unreachable ? 0 : $this->config->int('maxRetries'), $deadline);
            $this->lastError = $outcome->error ?? $this->lastError;
            if ($outcome->requeue) {
                array_unshift($this->queue, $payload);
                return;
            }
            $this->tally->count($outcome->bucket, $outcome->error);
            $unreachable = $outcome->exhausted || ($unreachable && $outcome->bucket === 'failed');
        }
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
            if (\count($this->queue) >= $this->maxQueueSize) {
                $this->tally->count('overflow');
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
        $this->queue[] = $payload;
        if ($this->shutdownHook && \count($this->queue) === 1) {
            Shutdown::hold($this, fn (float $startedAtMs) => $this->flushAtShutdown($startedAtMs));
        }
    }
}
