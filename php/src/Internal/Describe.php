<?php

declare(strict_types=1);

namespace Svc\Internal;

/**
 * Renders any `description` (or non-string title) as text, deterministically (same input, same
 * text), so the service's description dedup still works. A Throwable becomes `Class: message`, its
 * throw site and frames (project-relative paths, no arguments), then `Caused by: ...` for each
 * previous exception; any other value becomes JSON. Never throws.
 */
final class Describe
{
    /** Most previous exceptions rendered, and the deepest nesting of arrays and objects. */
    private const MAX_DEPTH = 10;

    public function __construct(private readonly Paths $paths)
    {
    }

    /** Text for any value; null for null (no description). */
    public function render(mixed $value): ?string
    {
        if ($value === null || \is_string($value)) {
            return $value;
        }
        try {
            if ($value instanceof \Throwable) {
                return $this->throwable($value);
            }
            return Text::json($this->plain($value, 0, []));
        } catch (\Throwable) {
            return get_debug_type($value);
        }
    }

    /** A number as JavaScript's `String(number)` writes it. */
    public static function number(int|float $value): string
    {
        if (\is_int($value)) {
            return (string) $value;
        }
        if (is_nan($value)) {
            return 'NaN';
        }
        if (is_infinite($value)) {
            return $value > 0 ? 'Infinity' : '-Infinity';
        }
        return (string) json_encode($value);
    }

    private function throwable(\Throwable $error): string
    {
        $out = '';
        $seen = [];
        for ($e = $error; $e !== null && \count($seen) < self::MAX_DEPTH; $e = $e->getPrevious()) {
            if (isset($seen[spl_object_id($e)])) {
                return $out . "\nCaused by: [Circular]";
            }
            $seen[spl_object_id($e)] = true;
            $out .= ($out === '' ? '' : "\nCaused by: ") . $this->one($e);
        }
        return $out;
    }

    private function one(\Throwable $e): string
    {
        $message = $e->getMessage();
        $text = $message === '' ? $e::class : $e::class . ': ' . $message;
        $text .= "\n    at " . $this->paths->relative($e->getFile()) . ':' . $e->getLine();
        foreach ($e->getTrace() as $i => $frame) {
            $where = isset($frame['file'])
                ? $this->paths->relative($frame['file']) . '(' . ($frame['line'] ?? 0) . ')'
                : '[internal function]';
            $call = ($frame['class'] ?? '') . ($frame['type'] ?? '') . $frame['function'] . '()';
            $text .= "\n#{$i} {$where}: {$call}";
        }
        return $text;
    }

    /** JSON-ready copy: Throwables as text, objects as their JSON form or public properties. */
    private function plain(mixed $value, int $depth, array $seen): mixed
    {
        if ($value instanceof \Throwable) {
            return $this->throwable($value);
        }
        if (\is_float($value) && !is_finite($value)) {
            return self::number($value);
        }
        if (\is_resource($value) || get_debug_type($value) === 'resource (closed)') {
            return '[resource]';
        }
        if ($value instanceof \Closure) {
            return '[function]';
        }
        if (\is_object($value)) {
            if (isset($seen[spl_object_id($value)]) || $depth >= self::MAX_DEPTH) {
                return '[Circular]';
            }
            $seen[spl_object_id($value)] = true;
            $value = match (true) {
                $value instanceof \JsonSerializable => $value->jsonSerialize(),
                $value instanceof \Stringable => (string) $value,
                $value instanceof \UnitEnum => $value instanceof \BackedEnum ? $value->value : $value->name,
                default => (object) get_object_vars($value),
            };
            if (\is_object($value)) {
                $out = new \stdClass();
                foreach (get_object_vars($value) as $key => $item) {
                    $out->{$key} = $this->plain($item, $depth + 1, $seen);
                }
                return $out;
            }
            return $this->plain($value, $depth + 1, $seen);
        }
        if (\is_array($value)) {
            if ($depth >= self::MAX_DEPTH) {
                return '[Circular]';
            }
            return array_map(fn (mixed $item): mixed => $this->plain($item, $depth + 1, $seen), $value);
        }
        return $value;
    }
}
