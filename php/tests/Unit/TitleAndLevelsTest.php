<?php

declare(strict_types=1);

namespace Svc\Tests\Unit;

use PHPUnit\Framework\TestCase;
use Svc\Enum\Priority;
use Svc\Enum\Severity;
use Svc\Generated\Methods;
use Svc\Integration\Levels;
use Svc\Integration\Title;

/** The integrations' card titles (the same masking as the TypeScript kit), severities and priorities. */
final class TitleAndLevelsTest extends TestCase
{
    public function testPerEventPartsOfAMessageAreMaskedSoTheSameFaultGivesOneTitle(): void
    {
        $cases = [
            'order 42 has no lines' => 'order <n> has no lines',
            'GET https://api.example.com/v1/orders?id=7 failed' => 'GET <url> failed',
            'no user bob@example.com' => 'no user <email>',
            "unknown key 'color' in \"config\"" => 'unknown key <value> in <value>',
            "can't read user's file" => "can't read user's file",
            'row 3f2504e0-4f89-11d3-9a0c-0305e82c3301 missing' => 'row <uuid> missing',
            'commit 9fceb02d0ae598e95dc970b74767f19372d61af8 missing' => 'commit <hash> missing',
            'session ab12cd34ef missing, token tok_9aZ81kq2 expired' => 'session <hash> missing, token <id> expired',
            'took 2.5 s, -3 left, v1.2.3 stays' => 'took <n> s, <n> left, v1.2.3 stays',
        ];
        foreach ($cases as $message => $masked) {
            self::assertSame($masked, Title::mask($message), $message);
        }
    }

    public function testATitleIsClassMaskedFirstLineAndPlace(): void
    {
        $error = new \RuntimeException("\n  order 42 failed  \nstack here");
        self::assertSame('RuntimeException: order <n> failed (GET /orders/{id})', Title::of($error, 'GET /orders/{id}'));
        self::assertSame('LogicException', Title::of(new \LogicException('')));
        self::assertSame('/orders/{id}', Title::route('orders/{id}', '/orders/42'), 'the route pattern, never the URL');
        self::assertSame('/orders/<n>/lines', Title::route(null, '/orders/42/lines?x=1'), 'no pattern: the path with ids masked');
        self::assertSame('/', Title::route('/', '/'));
        self::assertSame('/', Title::route(null, ''));
        self::assertSame('Payment for {order} failed (console app:pay)', Title::ofMessage('Payment for {order} failed', 'console app:pay'));
        $long = Title::of(new \Exception(str_repeat('word ', 100)));
        self::assertSame('Exception: ' . str_repeat('word ', 23) . 'wo...', $long);
    }

    public function testSeveritiesAndPrioritiesAreTakenAsEnumCasesOrStrings(): void
    {
        self::assertSame('major', Levels::severity(Severity::Major));
        self::assertSame('major', Levels::severity(' Major '));
        self::assertNull(Levels::severity('urgent'));
        self::assertNull(Levels::severity(Priority::High));
        self::assertSame('high', Levels::priority(Priority::High));
        self::assertNull(Levels::priority(3));
        self::assertSame(Methods::SEVERITIES, array_map(static fn (Severity $s): string => $s->value, Severity::cases()));
        self::assertSame(Methods::PRIORITIES, array_map(static fn (Priority $p): string => $p->value, Priority::cases()));
        self::assertSame(Methods::DEFAULT_PRIORITY, Priority::DEFAULT->value);
        foreach (Methods::TABLE as $method => [$severity, $priority]) {
            self::assertSame([$severity, $priority], Methods::TABLE[Levels::method($severity, $priority)]);
        }
    }
}
