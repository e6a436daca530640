<?php

declare(strict_types=1);

namespace Svc\Symfony\DependencyInjection;

use Svc\Generated\Options;
use Symfony\Component\Config\Definition\Builder\TreeBuilder;
use Symfony\Component\Config\Definition\ConfigurationInterface;

/**
 * The `svc:` tree: every option of the SDK in snake_case (from the generated option table; any
 * value may be an `%env(...)%` placeholder, checked by the client at run time), `url`, and how
 * the bundle reports: `report_exceptions`, and `severity`, `priority` to set them for every
 * reported exception instead of the failure table's. `before_send` names an
 * invokable service; `drop_context_keys` adds to the log context keys the Monolog handler drops. Unset credentials come from the SERVICE_* variables.
 */
final class Configuration implements ConfigurationInterface
{
    public function getConfigTreeBuilder(): TreeBuilder
    {
        $tree = new TreeBuilder('svc');
        $children = $tree->getRootNode()->children();
        $children->scalarNode('url')->defaultNull()->info('The service address (default: SERVICE_URL, else the built-in address).')->end();
        foreach (self::optionNames() as $snake => $option) {
            $node = match (Options::TYPES[$option]) {
                'string[]' => $children->arrayNode($snake)->scalarPrototype()->end(),
                'function' => $children->scalarNode($snake)->defaultNull()->info('The id of an invokable service.'),
                default => $children->scalarNode($snake)->defaultNull(),
            };
            $node->end();
        }
        $children
            ->booleanNode('report_exceptions')->defaultTrue()->info('Report kernel, console and Messenger exceptions.')->end()
            ->scalarNode('severity')->defaultNull()->info('Severity of every reported exception (default: the failure table\'s for its kind).')->end()
            ->scalarNode('priority')->defaultNull()->info('Priority of every reported exception (default: the failure table\'s for its kind).')->end()
            ->arrayNode('drop_context_keys')->scalarPrototype()->end()->info('Log context keys Svc\Monolog\SvcHandler never sends, besides password, secret, token, authorization...')->end();
        return $tree;
    }

    /** @return array<string, string> every option of the SDK: snake_case name => option name */
    public static function optionNames(): array
    {
        $camel = array_flip(Options::SNAKE_CASE);
        $names = [];
        foreach (array_keys(Options::DEFAULTS) as $option) {
            $names[$camel[$option] ?? $option] = $option;
        }
        return $names;
    }
}
