<?php

declare(strict_types=1);

namespace Svc\Tests\Unit;

use PHPUnit\Framework\TestCase;
use Svc\Client;
use Svc\Exception\AuthException;
use Svc\Exception\RateLimitException;
use Svc\Exception\ServerException;
use Svc\Exception\SvcException;
use Svc\Exception\ValidationException;
use Svc\Generated\Methods;
use Svc\Generated\Retry;
use Svc\Tests\Support\FakeTransport;
use Svc\Tests\Support\Recorder;

/** The generated surface as the client uses it: the 16 methods, the exceptions and their factory, the retry rule. */
final class GeneratedSurfaceTest extends TestCase
{
    public function testTheClientHasExactlyTheSixteenMethodsOfTheTableEachWithItsSeverityAndPriority(): void
    {
        self::assertCount(16, Methods::TABLE);
        $public = array_map(
            static fn (\ReflectionMethod $m): string => $m->getName(),
            (new \ReflectionClass(Client::class))->getMethods(\ReflectionMethod::IS_PUBLIC),
        );
        $reporting = array_values(array_diff($public, ['create', 'fromEnvironment', 'flush', 'droppedCount']));
        self::assertEqualsCanonicalizing(array_keys(Methods::TABLE), $reporting);
        self::assertNotContains('report', $public);

        $transport = new FakeTransport();
        $client = (new Recorder())->client(['apiKey' => Recorder::API_KEY, 'captureLocation' => false], $transport);
        foreach (array_keys(Methods::TABLE) as $method) {
            $client->{$method}("title {$method}");
        }
        $client->flush();
        $sent = array_map(static fn (array $p): array => [$p['severity'], $p['priority']], $transport->payloads());
        self::assertSame(array_values(Methods::TABLE), $sent);
    }

    public function testEveryReportingMethodCarriesPhpDocTypes(): void
    {
        foreach (array_keys(Methods::TABLE) as $method) {
            $doc = (string) (new \ReflectionMethod(Client::class, $method))->getDocComment();
            self::assertStringContainsString('@param string $title', $doc, $method);
            self::assertStringContainsString('@param string|\Throwable|null $description', $doc, $method);
            self::assertStringContainsString('@param list<string>|string|null $tags', $doc, $method);
        }
    }

    /** @return iterable<string, array{int, class-string, bool}> */
    public static function statuses(): iterable
    {
        yield '401' => [401, AuthException::class, false];
        yield '403' => [403, AuthException::class, false];
        yield '422' => [422, ValidationException::class, false];
        yield '429' => [429, RateLimitException::class, true];
        yield '400' => [400, ServerException::class, false];
        yield '404' => [404, ServerException::class, false];
        yield '500' => [500, ServerException::class, true];
        yield '503' => [503, ServerException::class, true];
    }

    /**
     * @dataProvider statuses
     * @param class-string $class
     */
    public function testOneFactoryFromTheStatus(int $status, string $class, bool $retryable): void
    {
        $error = SvcException::fromResponse($status, ['message' => 'nope']);
        self::assertInstanceOf($class, $error);
        self::assertInstanceOf(SvcException::class, $error);
        self::assertSame($status, $error->status);
        self::assertSame($retryable, $error->retryable);
        self::assertSame($retryable, Retry::isRetryable($status));
        self::assertSame('nope', $error->getMessage());
    }

    public function testMessageFieldErrorsRetryAfterAndCause(): void
    {
        self::assertSame('HTTP 502', SvcException::fromResponse(502, null)->getMessage());
        self::assertSame('HTTP 401', SvcException::fromResponse(401, ['message' => ''])->getMessage());
        $validation = SvcException::fromResponse(422, ['message' => 'invalid', 'errors' => ['title' => ['too long'], 'tags' => 'bad']]);
        self::assertInstanceOf(ValidationException::class, $validation);
        self::assertSame(['title' => ['too long'], 'tags' => ['bad']], $validation->fieldErrors);
        $limited = SvcException::fromResponse(429, [], '7');
        self::assertInstanceOf(RateLimitException::class, $limited);
        self::assertSame(7, $limited->retryAfter);
        $cause = new \RuntimeException('connection refused');
        $network = SvcException::fromNetworkFailure('network error', $cause);
        self::assertInstanceOf(ServerException::class, $network);
        self::assertNull($network->status);
        self::assertTrue($network->retryable);
        self::assertSame($cause, $network->getPrevious());
        self::assertTrue(Retry::isRetryable(null));
    }

    public function testRetryAfterIsIntegerSecondsOnly(): void
    {
        self::assertSame(12, Retry::parseRetryAfter(' 12 '));
        self::assertSame(0, Retry::parseRetryAfter('0'));
        foreach ([null, '', 'abc', '1.5', '-1', 'Wed, 21 Oct 2015 07:28:00 GMT'] as $value) {
            self::assertNull(Retry::parseRetryAfter($value), var_export($value, true));
        }
    }
}
