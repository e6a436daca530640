<?php

declare(strict_types=1);

namespace Svc\Tests\Unit;

use PHPUnit\Framework\TestCase;
use Svc\Internal\Paths;
use Svc\Tests\Support\FakeTransport;
use Svc\Tests\Support\Recorder;

/** Location capture (contract 4): throw site of the root cause, call site otherwise, project-relative paths, compiled views. */
final class LocationTest extends TestCase
{
    private string $root;

    protected function setUp(): void
    {
        $this->root = \dirname(__DIR__, 2);
    }

    /** @return array<string, mixed> the one payload a report sends */
    private function report(callable $call, array $options = []): array
    {
        $transport = new FakeTransport();
        $client = (new Recorder())->client(['apiKey' => Recorder::API_KEY, 'projectRoot' => $this->root] + $options, $transport);
        $call($client);
        $client->flush();
        return $transport->payloads()[0];
    }

    public function testTheReportingCallSiteWithItsLine(): void
    {
        $payload = $this->report(static function ($svc): void {
            $svc->major('Call site'); $line = __LINE__;
        });
        self::assertSame('tests/Unit/LocationTest.php', $payload['file_name']);
        self::assertSame(__LINE__ - 3, $payload['line_number']);
    }

    public function testTheThrowSiteOfTheRootCauseFollowingGetPrevious(): void
    {
        $root = new \DomainException('root cause'); $rootLine = __LINE__;
        $wrapped = new \RuntimeException('outer', 0, new \LogicException('middle', 0, $root));
        $payload = $this->report(static fn ($svc) => $svc->critical('Throw site', $wrapped));
        self::assertSame('tests/Unit/LocationTest.php', $payload['file_name']);
        self::assertSame($rootLine, $payload['line_number']);
    }

    public function testVendorThrowSitesAreReportedAsIsAndOutsidePathsAreRelative(): void
    {
        $paths = new Paths('/srv/app', null);
        self::assertSame('vendor/acme/lib/src/Client.php', $paths->relative('/srv/app/vendor/acme/lib/src/Client.php'));
        self::assertSame('vendor/acme/lib/src/Client.php', $paths->relative('/opt/shared/vendor/acme/lib/src/Client.php'));
        self::assertSame('src/Checkout.php', $paths->relative('/srv/app/src/Checkout.php'));
        self::assertSame('../other/x.php', $paths->relative('/srv/other/x.php'));
        self::assertSame('src/a.php', $paths->relative('phar:///srv/app/src/a.php'));
        self::assertSame('src/win.php', (new Paths('C:\\app', null))->relative('C:\\app\\src\\win.php'));
    }

    public function testTheProjectRootIsTheDirectoryHoldingComposerJsonAboveTheEntryScript(): void
    {
        $dir = sys_get_temp_dir() . '/svc-root-' . bin2hex(random_bytes(4));
        mkdir("{$dir}/app/public/deep", 0777, true);
        mkdir("{$dir}/app/vendor/bin", 0777, true);
        file_put_contents("{$dir}/app/composer.json", '{}');
        try {
            self::assertSame("{$dir}/app", Paths::detectRoot("{$dir}/app/public/deep/index.php"));
            self::assertSame("{$dir}/app", Paths::detectRoot("{$dir}/app/vendor/bin/phpunit"));
            unlink("{$dir}/app/composer.json");
            self::assertSame("{$dir}/app/public/deep", Paths::detectRoot("{$dir}/app/public/deep/index.php"));
        } finally {
            exec('rm -rf ' . escapeshellarg($dir));
        }
    }

    public function testCompiledViewsSendTheirTemplateWithoutALineNumber(): void
    {
        $dir = sys_get_temp_dir() . '/svc-views-' . bin2hex(random_bytes(4));
        $blade = "{$dir}/storage/framework/views/" . sha1('welcome') . '.php';
        $twig = "{$dir}/var/cache/twig/ab/" . str_repeat('ab', 16) . '.php';
        mkdir(\dirname($blade), 0777, true);
        mkdir(\dirname($twig), 0777, true);
        file_put_contents($blade, "<?php\nthrow new \\RuntimeException('in a view');\n?>\n<?php /**PATH {$dir}/resources/views/welcome.blade.php ENDPATH**/ ?>\n");
        file_put_contents($twig, "<?php\n\nuse Twig\\Environment;\n\n/* checkout/cart.html.twig */\nclass __TwigTemplate_x {}\nthrow new \\RuntimeException('in twig');\n");
        try {
            foreach ([[$blade, 'resources/views/welcome.blade.php'], [$twig, 'checkout/cart.html.twig']] as [$file, $expected]) {
                try {
                    require $file;
                    self::fail('the view throws');
                } catch (\RuntimeException $e) {
                    $payload = (function () use ($e): array {
                        $transport = new FakeTransport();
                        $client = (new Recorder())->client(['apiKey' => Recorder::API_KEY, 'projectRoot' => \dirname($e->getFile(), 4)], $transport);
                        $client->major('View', $e);
                        $client->flush();
                        return $transport->payloads()[0];
                    })();
                }
                self::assertSame($expected, $payload['file_name']);
                self::assertArrayNotHasKey('line_number', $payload);
            }
        } finally {
            exec('rm -rf ' . escapeshellarg($dir));
        }
    }

    public function testEvaldCodeReportsTheFileAndLineThatCalledEval(): void
    {
        $payload = $this->report(static function ($svc): void {
            eval('$svc->minor("From eval");'); $line = __LINE__;
        });
        self::assertSame('tests/Unit/LocationTest.php', $payload['file_name']);
        self::assertSame(__LINE__ - 3, $payload['line_number']);
    }

    public function testCaptureLocationOffSendsNoLocation(): void
    {
        $payload = $this->report(static fn ($svc) => $svc->major('Nowhere'), ['capture_location' => false]);
        self::assertArrayNotHasKey('file_name', $payload);
        self::assertArrayNotHasKey('line_number', $payload);
    }

    public function testLongFileNamesKeepTheirLast255CodePoints(): void
    {
        $error = new \RuntimeException('deep');
        $file = new \ReflectionProperty(\Exception::class, 'file');
        $file->setValue($error, $this->root . '/' . str_repeat('dé/', 120) . 'Checkout.php');
        $payload = $this->report(static fn ($svc) => $svc->major('Deep', $error));
        self::assertSame(255, mb_strlen($payload['file_name']));
        self::assertStringEndsWith('dé/dé/Checkout.php', $payload['file_name']);
    }
}
