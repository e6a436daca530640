<?php

declare(strict_types=1);

namespace Svc\Internal;

use Svc\Generated\Options;

/**
 * The options of contract 8.5 resolved to typed, in-range values. camelCase and snake_case keys are
 * accepted; an unknown key, or a value of the wrong type or out of range, is ignored (the default
 * applies) and noted in `$notes`, which the client writes to the debug channel. Never throws.
 */
final class Config
{
    /** Marks a value that cannot be used. */
    private const INVALID = "\0invalid";

    /** @var array<string, mixed> option name => resolved value */
    public readonly array $values;

    /** @var list<string> what was ignored, for the debug channel */
    public readonly array $notes;

    /** @param array<mixed> $options */
    public function __construct(array $options)
    {
        $values = Options::DEFAULTS;
        $notes = [];
        $given = [];
        foreach ($options as $key => $value) {
            $key = (string) $key;
            $name = \array_key_exists($key, Options::DEFAULTS) ? $key : (Options::SNAKE_CASE[$key] ?? null);
            if ($name === null) {
                $notes[] = \in_array($key, Options::OTHER_SDKS, true)
                    ? "option {$key} is not read by the PHP SDK: ignored"
                    : "unknown option {$key}: ignored";
                continue;
            }
            if (isset($given[$name])) {
                $notes[] = "option {$name} given twice ({$given[$name]} and {$key}): {$given[$name]} is used";
                continue;
            }
            $given[$name] = $key;
            $resolved = self::resolve($name, $value);
            if ($resolved === self::INVALID) {
                $notes[] = "option {$key}: invalid value (" . get_debug_type($value) . '): the default applies';
                continue;
            }
            $values[$name] = $resolved;
        }
        $this->values = $values;
        $this->notes = $notes;
    }

    /** The value to use, null for "unset", or INVALID. */
    private static function resolve(string $name, mixed $value): mixed
    {
        if ($value === null) {
            return Options::DEFAULTS[$name];
        }
        switch (Options::TYPES[$name]) {
            case 'string':
                if (!\is_string($value)) {
                    return self::INVALID;
                }
                $value = Text::trim($value);
                return $value === '' ? null : $value;
            case 'boolean':
                return \is_bool($value) ? $value : self::INVALID;
            case 'number':
            case 'integer':
                [$min, $max] = Options::RANGES[$name];
                if ((!\is_int($value) && !\is_float($value)) || is_nan((float) $value) || $value < $min || $value > $max) {
                    return self::INVALID;
                }
                return Options::TYPES[$name] === 'integer' ? (int) floor($value) : (float) $value;
            case 'string[]':
                return \is_array($value) || \is_string($value) ? $value : self::INVALID;
            case 'function':
                return \is_callable($value) ? $value : self::INVALID;
        }
        return self::INVALID;
    }

    public function string(string $name): ?string
    {
        $value = $this->values[$name];
        return \is_string($value) ? $value : null;
    }

    public function bool(string $name): bool
    {
        return (bool) $this->values[$name];
    }

    public function int(string $name): int
    {
        return (int) $this->values[$name];
    }

    public function float(string $name): float
    {
        return (float) $this->values[$name];
    }
}
