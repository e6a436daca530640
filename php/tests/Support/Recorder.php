<?php

declare(strict_types=1);

namespace Svc\Tests\Support;

use Svc\Client;
use Svc\Internal\Deps;
use Svc\Internal\Transport;

/** Builds clients for tests: a fake or real transport, a recording logger, fake sleep and clock. */
final class Recorder
{
    public const API_KEY = 'svc_pub_0123456789abcdef0123456789abcdef0123456789abcdef';

    /** @var list<array{string, string}> level and line */
    public array $lines = [];

    /** @var list<int> */
    public array $sleeps = [];

    public float $clock = 1_800_000_000_000.0;

    /** @var list<float> */
    public array $randoms = [];

    /** Where clients share what they know of an unreachable service (`OutageNote`); false: nowhere. */
    public string|false $outageNotes = false;

    public function deps(?Transport $transport = null, array $env = [], ?string $entryScript = null): Deps
    {
        return new Deps(
            transport: $transport,
            now: fn (): float => $this->clock,
            sleep: function (int $ms): void {
                $this->sleeps[] = $ms;
                $this->clock += $ms;
            },
            random: fn (): float => $this->randoms === [] ? 0.5 : array_shift($this->randoms),
            logger: function (string $level, string $line): void {
                $this->lines[] = [$level, $line];
            },
            env: static fn (string $name): ?string => $env[$name] ?? null,
            entryScript: $entryScript,
            shutdownHook: false,
            outageNotes: $this->outageNotes,
        );
    }

    /** @param array<string, mixed> $options */
    public function client(array $options, ?Transport $transport = null, ?string $serviceUrl = 'http://127.0.0.1:9', array $env = []): Client
    {
        return Client::create($options, $serviceUrl, $this->deps($transport, $env));
    }

    /** @return list<string> lines of one level */
    public function linesOf(string $level): array
    {
        return array_values(array_map(
            static fn (array $l): string => $l[1],
            array_filter($this->lines, static fn (array $l): bool => $l[0] === $level),
        ));
    }

    public function text(): string
    {
        return implode("\n", array_map(static fn (array $l): string => $l[1], $this->lines));
    }
}
