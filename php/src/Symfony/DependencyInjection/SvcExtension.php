<?php

declare(strict_types=1);

namespace Svc\Symfony\DependencyInjection;

use Svc\Client;
use Svc\Integration\ClientFactory;
use Svc\Monolog\SvcHandler;
use Svc\Symfony\Command\TestCommand;
use Svc\Symfony\EventListener\SvcSubscriber;
use Symfony\Component\DependencyInjection\ContainerBuilder;
use Symfony\Component\DependencyInjection\ContainerInterface;
use Symfony\Component\DependencyInjection\Extension\Extension;
use Symfony\Component\DependencyInjection\Reference;

/**
 * Registers the services of the `svc:` configuration: `Svc\Client` (alias `svc`; built at run time
 * by `ClientFactory`, so `%env()%` values resolve then), `SvcSubscriber` (kernel, console and
 * Messenger events), the `svc:test` command, and `Svc\Monolog\SvcHandler` when Monolog is
 * installed (for MonologBundle: `type: service, id: Svc\Monolog\SvcHandler`).
 */
final class SvcExtension extends Extension
{
    /** @param array<mixed> $configs */
    public function load(array $configs, ContainerBuilder $container): void
    {
        $config = $this->processConfiguration(new Configuration(), $configs);
        $options = [];
        foreach (Configuration::optionNames() as $snake => $option) {
            $value = $config[$snake] ?? null;
            if ($option === 'beforeSend' && \is_string($value) && $value !== '') {
                $value = new Reference($value);
            }
            $options[$option] = $value;
        }
        $container->register(Client::class, Client::class)
            ->setFactory([ClientFactory::class, 'create'])
            ->setArguments([$options, [], $config['url'], '%kernel.project_dir%'])
            ->setPublic(true);
        $container->setAlias('svc', Client::class)->setPublic(true);
        $container->register(SvcSubscriber::class, SvcSubscriber::class)
            ->setArguments([
                new Reference(Client::class),
                $config['report_exceptions'],
                $config['severity'],
                $config['priority'],
                $options['timeoutMs'],
                new Reference('router', ContainerInterface::NULL_ON_INVALID_REFERENCE),
            ])
            ->addTag('kernel.event_subscriber');
        $container->register(TestCommand::class, TestCommand::class)
            ->setArguments([new Reference(Client::class)])
            ->addTag('console.command', ['command' => 'svc:test']);
        if (class_exists(\Monolog\Handler\AbstractHandler::class)) {
            $container->register(SvcHandler::class, SvcHandler::class)
                ->setArguments(['$client' => new Reference(Client::class), '$dropContextKeys' => $config['drop_context_keys']]);
        }
    }
}
