<?php

declare(strict_types=1);

namespace Svc\Tests\Support;

use Svc\Internal\HttpResult;
use Svc\Internal\Transport;

/**
 * A transport that records every request and answers from a script, for tests about what the
 * client sends and how it reacts (the wire itself is covered by the black-box suite).
 */
final class FakeTransport implements Transport
{
    /** @var list<array{url: string, headers: array<string, string>, body: string, timeoutMs: int}> */
    public array $requests = [];

    /**
     * @param list<HttpResult> $answers consumed in order; the last one repeats
     * @param Recorder|null $clock a timeout answer moves this clock on by the attempt's limit, as a real one takes it
     */
    public function __construct(private array $answers = [], private ?Recorder $clock = null)
    {
    }

    public function post(string $url, array $headers, string $body, int $timeoutMs): HttpResult
    {
        $this->requests[] = ['url' => $url, 'headers' => $headers, 'body' => $body, 'timeoutMs' => $timeoutMs];
        if ($this->answers === []) {
            return HttpResult::answer(201, '{"deduplicated":false}');
        }
        $answer = \count($this->answers) > 1 ? array_shift($this->answers) : $this->answers[0];
        if ($this->clock !== null && $answer->failure === HttpResult::TIMEOUT) {
            $this->clock->clock += $timeoutMs;
        }
        return $answer;
    }

    /** @param list<HttpResult> $answers what the next requests get (the last one repeats) */
    public function answer(array $answers): void
    {
        $this->answers = $answers;
    }

    /** @return list<array<string, mixed>> the decoded bodies */
    public function payloads(): array
    {
        return array_map(static fn (array $r): array => json_decode($r['body'], true), $this->requests);
    }
}
