<?php

declare(strict_types=1);

namespace Svc\Tests\Unit;

use PHPUnit\Framework\TestCase;
use Svc\Internal\Describe;
use Svc\Internal\Paths;
use Svc\Internal\Text;

/** Descriptions: Throwables with their chain, any other value as JSON; deterministic, never throwing. */
final class DescribeTest extends TestCase
{
    private Describe $describe;

    protected function setUp(): void
    {
        $this->describe = new Describe(new Paths(\dirname(__DIR__, 2), null));
    }

    private static function fail2(): \RuntimeException
    {
        try {
            self::inner();
        } catch (\LogicException $e) {
            return new \RuntimeException('Checkout failed', 0, $e);
        }
    }

    private static function inner(): never
    {
        throw new \LogicException('cart is empty');
    }

    public function testAThrowableBecomesClassMessageSiteFramesThenItsCauses(): void
    {
        $error = self::fail2();
        $text = (string) $this->describe->render($error);
        $lines = explode("\n", $text);
        self::assertSame('RuntimeException: Checkout failed', $lines[0]);
        self::assertSame('    at tests/Unit/DescribeTest.php:' . $error->getLine(), $lines[1]);
        self::assertMatchesRegularExpression('/^#0 tests\/Unit\/DescribeTest\.php\(\d+\): Svc\\\\Tests\\\\Unit\\\\DescribeTest::fail2\(\)$/', $lines[2]);
        self::assertStringContainsString("\nCaused by: LogicException: cart is empty\n    at tests/Unit/DescribeTest.php:", $text);
        self::assertStringContainsString(': Svc\Tests\Unit\DescribeTest::inner()', $text);
        self::assertStringNotContainsString(\dirname(__DIR__, 2), $text, 'paths are project-relative');
        self::assertSame($text, $this->describe->render($error), 'deterministic');
    }

    public function testOtherValuesBecomeJson(): void
    {
        $object = new class () {
            public string $name = 'cart';
            public array $items = [1, 2];
            private string $secret = 'hidden';
        };
        $json = new class () implements \JsonSerializable {
            public function jsonSerialize(): mixed
            {
                return ['custom' => true];
            }
        };
        self::assertSame('{"name":"cart","items":[1,2]}', $this->describe->render($object));
        self::assertSame('{"custom":true}', $this->describe->render($json));
        self::assertSame('{"user":{"id":7},"when":"[function]"}', $this->describe->render(['user' => ['id' => 7], 'when' => static fn () => 1]));
        self::assertSame('["Infinity","NaN",1.5,"€/x"]', $this->describe->render([INF, NAN, 1.5, '€/x']));
        self::assertStringStartsWith('{"error":"LogicException: nested', (string) $this->describe->render(['error' => new \LogicException('nested')]));
        self::assertNull($this->describe->render(null));
        self::assertSame('', $this->describe->render(''));
    }

    public function testRecursiveAndHostileValuesStillRender(): void
    {
        $recursive = ['a' => 1];
        $recursive['self'] = &$recursive;
        $text = (string) $this->describe->render($recursive);
        self::assertStringContainsString('[Circular]', $text);
        $node = new \stdClass();
        $node->next = $node;
        self::assertSame('{"next":"[Circular]"}', $this->describe->render($node));
        $throwing = new class () implements \JsonSerializable {
            public function jsonSerialize(): mixed
            {
                throw new \RuntimeException('no');
            }
        };
        self::assertStringStartsWith('JsonSerializable@anonymous', (string) $this->describe->render($throwing));
    }

    public function testTextClampsCountCodePointsAndRepairUtf8(): void
    {
        self::assertSame('a😀', Text::clamp('a😀b', 2));
        self::assertSame('😀b', Text::clampStart('a😀b', 2));
        self::assertSame("ok\u{FFFD}", Text::utf8("ok\xff"));
        self::assertSame('x', Text::trim("\u{FEFF}\u{A0}\t x \u{3000}\n"));
        self::assertSame("\0x", Text::trim(" \0x "), 'NUL is not whitespace in JavaScript');
        self::assertSame(255, mb_strlen(Text::clamp(str_repeat('€', 300), 255)));
    }
}
