<?php

declare(strict_types=1);

namespace Svc\Tests\Conformance;

use PHPUnit\Framework\TestCase;
use Svc\Tests\Support\FakeTransport;
use Svc\Tests\Support\Recorder;

/**
 * Cross-SDK conformance, PHP side: every case of spec/conformance/payloads.json (options and one
 * reporting call -> the exact wire payload and headers). The TypeScript suite runs the same file
 * (runtime/test/conformance.test.ts), so the two SDKs cannot drift apart.
 */
final class ConformanceTest extends TestCase
{
    private const TABLE = __DIR__ . '/../../../spec/conformance/payloads.json';

    /** @return iterable<string, array{array<string, mixed>}> */
    public static function cases(): iterable
    {
        $table = json_decode((string) file_get_contents(self::TABLE), true, 512, JSON_THROW_ON_ERROR);
        foreach ($table['cases'] as $case) {
            yield $case['name'] => [$case + ['apiKey' => $table['apiKey']]];
        }
    }

    /**
     * @dataProvider cases
     * @param array<string, mixed> $case
     */
    public function testCase(array $case): void
    {
        $transport = new FakeTransport();
        $options = ['apiKey' => $case['apiKey'], 'captureLocation' => false] + self::expand($case['options'] ?? []);
        if (isset($case['beforeSend'])) {
            $options['beforeSend'] = self::beforeSend($case['beforeSend']);
        }
        $client = (new Recorder())->client($options, $transport);
        $call = self::expand($case['call']);
        $method = array_shift($call);
        $client->{$method}(...$call);
        $client->flush();

        $expected = self::expand($case['payload']);
        if ($expected === null) {
            self::assertSame([], $transport->requests);
            return;
        }
        self::assertCount(1, $transport->requests);
        $request = $transport->requests[0];
        // Same keys, same order, same values, same bytes.
        self::assertSame($expected, json_decode($request['body'], true));
        if (isset($case['wire'])) {
            self::assertSame($case['wire'], $request['body']);
        }
        foreach ($case['headers'] ?? [] as $name => $value) {
            self::assertSame($value, $request['headers'][$name] ?? null, $name);
        }
    }

    /** Expands `{"$repeat": [text, n]}` and `{"$list": [prefix, n]}` anywhere in a value. */
    private static function expand(mixed $value): mixed
    {
        if (!\is_array($value)) {
            return $value;
        }
        if (isset($value['$repeat'])) {
            return str_repeat($value['$repeat'][0], $value['$repeat'][1]);
        }
        if (isset($value['$list'])) {
            return array_map(static fn (int $i): string => $value['$list'][0] . $i, range(0, $value['$list'][1] - 1));
        }
        return array_map(self::expand(...), $value);
    }

    /** @param array<string, mixed> $spec */
    private static function beforeSend(array $spec): \Closure
    {
        return static function (array $payload) use ($spec): ?array {
            if (\array_key_exists('return', $spec)) {
                return $spec['return'];
            }
            $out = array_merge($payload, self::expand($spec['merge'] ?? []));
            foreach ($spec['remove'] ?? [] as $key) {
                unset($out[$key]);
            }
            return $out;
        };
    }
}
