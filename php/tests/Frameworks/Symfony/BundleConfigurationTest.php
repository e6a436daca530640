<?php

declare(strict_types=1);

namespace Svc\Tests\Frameworks\Symfony;

use PHPUnit\Framework\TestCase;
use Svc\Client;
use Svc\Symfony\DependencyInjection\Configuration;
use Svc\Symfony\DependencyInjection\SvcExtension;
use Svc\Symfony\EventListener\SvcSubscriber;
use Svc\Tests\Support\ReferenceService;
use Symfony\Component\Config\Definition\Exception\InvalidConfigurationException;
use Symfony\Component\DependencyInjection\ContainerBuilder;

/**
 * The `svc:` configuration: every SDK option in snake_case, `%env()%` values resolved at run time,
 * credentials from the SERVICE_* variables when not configured, `before_send` as a service id; a
 * container built from it gives a client that reaches the reference service.
 */
final class BundleConfigurationTest extends TestCase
{
    /** @param array<string, mixed> $config */
    private static function container(array $config): ContainerBuilder
    {
        $container = new ContainerBuilder();
        $container->setParameter('kernel.project_dir', '/srv/app');
        $container->registerExtension(new SvcExtension());
        $container->loadFromExtension('svc', $config);
        $container->register('app.scrubber', Scrubber::class)->setPublic(true);
        return $container;
    }

    public function testTheTreeHasEveryOptionInSnakeCaseAndHowExceptionsAreReported(): void
    {
        $names = array_keys(Configuration::optionNames());
        foreach (['api_key', 'key_id', 'signing_secret', 'encryption_public_key', 'environment', 'default_tags', 'sample_rate', 'timeout_ms', 'before_send', 'project_root', 'debug'] as $name) {
            self::assertContains($name, $names);
        }
        $container = self::container(['sample_rate' => 0.5, 'default_tags' => ['shop'], 'severity' => 'critical', 'drop_context_keys' => ['ssn']]);
        // The extension's definitions, as a kernel's compilation merges them.
        (new \Symfony\Component\DependencyInjection\Compiler\MergeExtensionConfigurationPass())->process($container);
        self::assertTrue($container->has(Client::class));
        self::assertTrue($container->has(SvcSubscriber::class));
        self::assertTrue($container->getDefinition(SvcSubscriber::class)->hasTag('kernel.event_subscriber'));
        [$options] = $container->getDefinition(Client::class)->getArguments();
        self::assertSame([0.5, ['shop']], [$options['sampleRate'], $options['defaultTags']]);
        self::assertSame(['ssn'], $container->getDefinition(\Svc\Monolog\SvcHandler::class)->getArgument('$dropContextKeys'));
        $this->expectException(InvalidConfigurationException::class);
        self::container(['no_such_option' => true])->compile();
    }

    public function testEnvValuesResolveAtRunTimeAndTheClientReachesTheService(): void
    {
        $svc = ReferenceService::get();
        $_SERVER['SVC_TEST_URL'] = $svc->url;
        $_SERVER['SVC_TEST_ENV'] = 'ci';
        $_SERVER['SVC_TEST_TIMEOUT'] = '3000';
        $_SERVER['SERVICE_KEY_ID'] = $svc->keys['keyId'];
        $_SERVER['SERVICE_SIGNING_SECRET'] = $svc->keys['signingSecret'];
        try {
            $container = self::container([
                'url' => '%env(SVC_TEST_URL)%',
                'environment' => '%env(SVC_TEST_ENV)%',
                'timeout_ms' => '%env(int:SVC_TEST_TIMEOUT)%',
                'before_send' => 'app.scrubber',
            ]);
            $container->compile(true);
            $client = $container->get(Client::class);
            $client->major('Symfony configured from env, token=abc123');
            self::assertSame(1, $client->flush()->sent);
        } finally {
            unset($_SERVER['SVC_TEST_URL'], $_SERVER['SVC_TEST_ENV'], $_SERVER['SVC_TEST_TIMEOUT'], $_SERVER['SERVICE_KEY_ID'], $_SERVER['SERVICE_SIGNING_SECRET']);
        }
        $card = $svc->card('Symfony configured from env, token=[scrubbed]');
        self::assertNotNull($card, 'signed with the secret key from SERVICE_KEY_ID + SERVICE_SIGNING_SECRET, scrubbed by the before_send service');
        self::assertSame(['env:ci'], $card['tags']);
    }
}

/** An invokable `before_send` service. */
final class Scrubber
{
    /** @param array<string, mixed> $payload */
    public function __invoke(array $payload): array
    {
        $payload['title'] = (string) preg_replace('/token=\w+/', 'token=[scrubbed]', $payload['title']);
        return $payload;
    }
}
