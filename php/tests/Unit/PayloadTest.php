<?php

declare(strict_types=1);

namespace Svc\Tests\Unit;

use PHPUnit\Framework\TestCase;
use Svc\Generated\Limits;
use Svc\Internal\Payload;

/** What `beforeSend` returns is checked like the SDK's own payload (contract 2.1, 8.1). */
final class PayloadTest extends TestCase
{
    public function testALineNumberOutsideThePositive32BitRangeIsLeftOut(): void
    {
        $original = ['severity' => 'major', 'priority' => 'medium', 'title' => 'T', 'tags' => []];
        $line = static fn (mixed $value): mixed => Payload::sanitize(['line_number' => $value], $original)['line_number'] ?? null;
        self::assertSame(Limits::LINE_NUMBER_MAX, $line(Limits::LINE_NUMBER_MAX));
        self::assertSame(Limits::LINE_NUMBER_MIN, $line(Limits::LINE_NUMBER_MIN));
        self::assertNull($line(Limits::LINE_NUMBER_MAX + 1));
        self::assertNull($line(2 ** 62));
        self::assertNull($line(1e300));
        self::assertNull($line(0));
    }
}
