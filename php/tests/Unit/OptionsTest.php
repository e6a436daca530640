<?php

declare(strict_types=1);

namespace Svc\Tests\Unit;

use PHPUnit\Framework\TestCase;
use Svc\Generated\Options;
use Svc\Internal\Config;

/** Contract 8.5 in PHP: camelCase and snake_case keys, defaults from the spec, invalid values ignored. */
final class OptionsTest extends TestCase
{
    public function testDefaultsAreTheContractsAndComeFromTheGeneratedOptions(): void
    {
        $values = (new Config([]))->values;
        self::assertSame(Options::DEFAULTS, $values);
        self::assertSame(100, $values['maxQueueSize']);
        self::assertSame(3, $values['concurrency']);
        self::assertSame(2000, $values['flushIntervalMs']);
        self::assertSame(5000, $values['timeoutMs']);
        self::assertSame(3, $values['maxRetries']);
        self::assertSame(1.0, $values['sampleRate']);
        self::assertTrue($values['hideApiResponse']);
        self::assertTrue($values['captureLocation']);
        self::assertFalse($values['debug']);
        self::assertArrayNotHasKey('lineNumbers', $values);
        self::assertArrayNotHasKey('sourceMaps', $values);
    }

    public function testSnakeCaseAndCamelCaseKeysAreBothAccepted(): void
    {
        $config = new Config([
            'capture_location' => false,
            'project_root' => '/srv/app',
            'max_queue_size' => 7,
            'sampleRate' => 0.25,
            'before_send' => 'trim',
            'log_locally' => true,
            'key_id' => ' svck_abc ',
        ]);
        self::assertFalse($config->values['captureLocation']);
        self::assertSame('/srv/app', $config->values['projectRoot']);
        self::assertSame(7, $config->values['maxQueueSize']);
        self::assertSame(0.25, $config->values['sampleRate']);
        self::assertSame('trim', $config->values['beforeSend']);
        self::assertTrue($config->values['logLocally']);
        self::assertSame('svck_abc', $config->values['keyId']);
        self::assertSame([], $config->notes);
    }

    public function testInvalidUnknownAndOtherSdkOptionsFallBackWithANote(): void
    {
        $config = new Config([
            'maxQueueSize' => 0,
            'timeout_ms' => '5000',
            'sampleRate' => 1.5,
            'debug' => 'yes',
            'beforeSend' => 'not a function',
            'lineNumbers' => true,
            'colour' => 'blue',
            'maxRetries' => 2.7,
            'captureLocation' => false,
            'capture_location' => true,
        ]);
        $values = $config->values;
        self::assertSame(100, $values['maxQueueSize']);
        self::assertSame(5000, $values['timeoutMs']);
        self::assertSame(1.0, $values['sampleRate']);
        self::assertFalse($values['debug']);
        self::assertNull($values['beforeSend']);
        self::assertSame(2, $values['maxRetries']);
        self::assertFalse($values['captureLocation']);
        self::assertSame([
            'option maxQueueSize: invalid value (int): the default applies',
            'option timeout_ms: invalid value (string): the default applies',
            'option sampleRate: invalid value (float): the default applies',
            'option debug: invalid value (string): the default applies',
            'option beforeSend: invalid value (string): the default applies',
            'option lineNumbers is not read by the PHP SDK: ignored',
            'unknown option colour: ignored',
            'option captureLocation given twice (captureLocation and capture_location): captureLocation is used',
        ], $config->notes);
    }
}
