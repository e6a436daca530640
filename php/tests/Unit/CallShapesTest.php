<?php

declare(strict_types=1);

namespace Svc\Tests\Unit;

use PHPUnit\Framework\TestCase;
use Svc\Enum\Severity;
use Svc\Generated\Methods;
use Svc\Tests\Support\FakeTransport;
use Svc\Tests\Support\Recorder;

/**
 * No call shape throws into the host: each of the 16 methods with no arguments, nulls, objects,
 * numbers, arrays, booleans, resources, closures, enums, throwing `__toString`, extra positional
 * and unknown named arguments. Every call still makes exactly one report, with the method's
 * severity and priority and a non-empty title; `flush()` takes any value too.
 */
final class CallShapesTest extends TestCase
{
    /** @return array<string, array{\Closure(object, string): void}> */
    public static function shapes(): array
    {
        $stream = fopen('php://memory', 'r');
        $recursive = ['self'];
        $recursive[] = &$recursive;
        $throwingString = new class () {
            public function __toString(): string
            {
                throw new \LogicException('no string for you');
            }
        };
        $calls = [
            'no arguments' => static fn (object $c, string $m) => $c->{$m}(),
            'null title' => static fn (object $c, string $m) => $c->{$m}(null),
            'three nulls' => static fn (object $c, string $m) => $c->{$m}(null, null, null),
            'object title' => static fn (object $c, string $m) => $c->{$m}(new \stdClass()),
            'object description and tags' => static fn (object $c, string $m) => $c->{$m}('Objects', new \ArrayObject([1]), new \stdClass()),
            'integer title' => static fn (object $c, string $m) => $c->{$m}(42),
            'float title, INF and NAN' => static fn (object $c, string $m) => $c->{$m}(3.5, INF, [NAN]),
            'array title' => static fn (object $c, string $m) => $c->{$m}(['a' => ['b' => 1]]),
            'recursive array' => static fn (object $c, string $m) => $c->{$m}('Recursive', $recursive, $recursive),
            'booleans' => static fn (object $c, string $m) => $c->{$m}(true, false, true),
            'resource' => static fn (object $c, string $m) => $c->{$m}($stream, $stream, $stream),
            'closure' => static fn (object $c, string $m) => $c->{$m}(static fn () => 1, static fn () => 2),
            'enum' => static fn (object $c, string $m) => $c->{$m}(Severity::Major, Severity::Minor, [Severity::Critical]),
            'throwing __toString' => static fn (object $c, string $m) => $c->{$m}($throwingString, $throwingString, [$throwingString]),
            'a Throwable as the title' => static fn (object $c, string $m) => $c->{$m}(new \RuntimeException('as title')),
            'numbers as tags' => static fn (object $c, string $m) => $c->{$m}('Tags', null, [1, 2.5, null, [3]]),
            'extra positional arguments' => static fn (object $c, string $m) => $c->{$m}('Extra', 'd', 't', 'x', 'y', 'z'),
            'unknown named arguments' => static fn (object $c, string $m) => $c->{$m}(title: 'Named', severity: 'critical', status: 'done'),
            'only a named description' => static fn (object $c, string $m) => $c->{$m}(description: new \LogicException('why')),
            'invalid UTF-8' => static fn (object $c, string $m) => $c->{$m}("bad \xC3\x28 bytes", "\xFF\xFE", "\x80"),
        ];
        return array_map(static fn (\Closure $call): array => [$call], $calls);
    }

    /** @dataProvider shapes */
    public function testEveryMethodTakesThisShapeWithoutThrowingAndReportsOnce(\Closure $call): void
    {
        $transport = new FakeTransport();
        $client = (new Recorder())->client(['apiKey' => Recorder::API_KEY], $transport);
        foreach (array_keys(Methods::TABLE) as $method) {
            $call($client, $method);
        }
        $result = $client->flush();
        self::assertSame(\count(Methods::TABLE), $result->sent, 'one report per call');
        foreach (array_values(Methods::TABLE) as $i => [$severity, $priority]) {
            $payload = $transport->payloads()[$i];
            self::assertSame([$severity, $priority], [$payload['severity'], $payload['priority']]);
            self::assertNotSame('', $payload['title']);
            self::assertContainsOnly('string', $payload['tags']);
        }
    }

    public function testNoArgumentsGivesTheUntitledTitleAndTheCallSite(): void
    {
        $transport = new FakeTransport();
        $client = (new Recorder())->client(['apiKey' => Recorder::API_KEY, 'projectRoot' => \dirname(__DIR__, 2)], $transport);
        $client->major();
        $line = __LINE__ - 1;
        $client->flush();
        self::assertSame(['severity' => 'major', 'priority' => 'medium', 'title' => 'Untitled error', 'tags' => [],
            'file_name' => 'tests/Unit/CallShapesTest.php', 'line_number' => $line], $transport->payloads()[0]);
    }

    public function testFlushAndDroppedCountTakeAnyValue(): void
    {
        $client = (new Recorder())->client(['apiKey' => Recorder::API_KEY], new FakeTransport());
        foreach (['soon', -5, 1.5, NAN, INF, [], new \stdClass(), null, true] as $value) {
            $client->minor('Flush shapes');
            self::assertSame(1, $client->flush($value)->sent + $client->flush()->sent, var_export($value, true));
        }
        self::assertSame(0, $client->droppedCount());
    }

    public function testAFailingCallOnADisabledClientThrowsNothingEither(): void
    {
        $recorder = new Recorder();
        $client = $recorder->client([], new FakeTransport());
        $client->major();
        $client->criticalHigh(null, null, null, null);
        self::assertSame(0, $client->flush()->sent);
    }
}
