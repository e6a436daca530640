<?php

declare(strict_types=1);

namespace Svc\Internal;

use Svc\Generated\Limits;

/** Tag normalisation: a list or a CSV string in; trimmed, clamped, de-duplicated strings out. */
final class Tags
{
    /**
     * Appends the tags of `$input` (a list or a CSV string; other values are ignored) to `$out`.
     *
     * @param list<string> $out
     * @return list<string>
     */
    public static function add(array $out, mixed $input): array
    {
        if (\is_string($input)) {
            $list = explode(',', $input);
        } elseif (\is_array($input)) {
            $list = \array_slice(array_values($input), 0, Limits::MAX_TAGS);
        } else {
            return $out;
        }
        foreach ($list as $raw) {
            if (\count($out) >= Limits::MAX_TAGS) {
                break;
            }
            $text = match (true) {
                \is_string($raw) => $raw,
                \is_bool($raw) => $raw ? 'true' : 'false',
                \is_int($raw), \is_float($raw) => Describe::number($raw),
                default => null,
            };
            if ($text === null) {
                continue;
            }
            $tag = Text::clamp(Text::trim($text), Limits::TAG_MAX);
            if ($tag !== '' && !\in_array($tag, $out, true)) {
                $out[] = $tag;
            }
        }
        return $out;
    }
}
