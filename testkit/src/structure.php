<?php
// The structure rules for the PHP SDK's sources (test/structure.test.ts runs it), read with PHP's
// own tokenizer: every function or method over the line limit, and the import circles between
// classes. A class's references: its `use Svc\...` imports, qualified `Svc\...` names, and names
// of classes of its own namespace (a file beside it). Usage: php structure.php <src dir> <max>;
// prints {"long": [[file, line, name, lines], ...], "circles": [[file, ...], ...]} as JSON.
declare(strict_types=1);

[$_, $src, $max] = $argv;
$src = rtrim(realpath($src), '/');
$files = [];
$walk = new RecursiveIteratorIterator(new RecursiveDirectoryIterator($src, FilesystemIterator::SKIP_DOTS));
foreach ($walk as $file) {
    $path = $file->getPathname();
    if (str_ends_with($path, '.php') && !str_ends_with($path, '.gen.php')) {
        $files[] = substr($path, strlen($src) + 1);
    }
}
sort($files);

/** The class a file declares, by its path under src: `Internal/Payload.php` -> `Internal\Payload`. */
function classOf(string $file): string
{
    return str_replace('/', '\\', preg_replace('/(\.gen)?\.php$/', '', $file));
}

$known = [];
foreach ($walk as $file) {
    $path = substr($file->getPathname(), strlen($src) + 1);
    if (str_ends_with($path, '.php')) {
        $known[classOf($path)] = $path;
    }
}

$long = [];
$edges = [];
foreach ($files as $file) {
    $tokens = token_get_all(file_get_contents("$src/$file"));
    $count = count($tokens);
    $self = classOf($file);
    $namespace = str_contains($self, '\\') ? substr($self, 0, strrpos($self, '\\')) : '';
    $refs = [];
    for ($i = 0; $i < $count; $i++) {
        $token = $tokens[$i];
        if (!is_array($token)) {
            continue;
        }
        [$kind, $text, $line] = $token;
        if ($kind === T_FUNCTION) {
            $name = '{closure}';
            for ($j = $i + 1; $j < $count && $tokens[$j] !== '('; $j++) {
                if (is_array($tokens[$j]) && $tokens[$j][0] === T_STRING) {
                    $name = $tokens[$j][1];
                    break;
                }
            }
            for ($j = $i + 1; $j < $count && $tokens[$j] !== '{' && $tokens[$j] !== ';'; $j++);
            if ($j >= $count || $tokens[$j] === ';') {
                continue; // abstract or interface method: no body
            }
            $depth = 0;
            for ($k = $j; $k < $count; $k++) {
                $t = $tokens[$k];
                if ($t === '{' || (is_array($t) && in_array($t[0], [T_CURLY_OPEN, T_DOLLAR_OPEN_CURLY_BRACES], true))) {
                    $depth++;
                } elseif ($t === '}' && --$depth === 0) {
                    break;
                }
            }
            $end = $line;
            for ($m = $k; $m > $i; $m--) {
                if (is_array($tokens[$m])) {
                    $end = $tokens[$m][2] + substr_count($tokens[$m][1], "\n");
                    break;
                }
            }
            if ($end - $line + 1 > (int) $max) {
                $long[] = [$file, $line, $name, $end - $line + 1];
            }
        } elseif (in_array($kind, [T_NAME_QUALIFIED, T_NAME_FULLY_QUALIFIED], true)) {
            $name = ltrim($text, '\\');
            if (str_starts_with($name, 'Svc\\')) {
                $refs[] = substr($name, 4);
            } elseif ($kind === T_NAME_QUALIFIED && $namespace !== '') {
                $refs[] = "$namespace\\$name";
            }
        } elseif ($kind === T_STRING && $namespace !== '' && isset($known["$namespace\\$text"])) {
            $refs[] = "$namespace\\$text";
        } elseif ($kind === T_STRING && $namespace === '' && isset($known[$text])) {
            $refs[] = $text;
        }
    }
    foreach (array_unique($refs) as $ref) {
        if (isset($known[$ref]) && $known[$ref] !== $file && in_array($known[$ref], $files, true)) {
            $edges[$file][] = $known[$ref];
        }
    }
}

// Tarjan's strongly connected components: each of two or more files is a circle.
$index = [];
$low = [];
$stack = [];
$onStack = [];
$next = 0;
$circles = [];
$connect = function (string $v) use (&$connect, &$index, &$low, &$stack, &$onStack, &$next, &$circles, $edges): void {
    $index[$v] = $low[$v] = $next++;
    $stack[] = $v;
    $onStack[$v] = true;
    foreach ($edges[$v] ?? [] as $w) {
        if (!isset($index[$w])) {
            $connect($w);
            $low[$v] = min($low[$v], $low[$w]);
        } elseif (isset($onStack[$w])) {
            $low[$v] = min($low[$v], $index[$w]);
        }
    }
    if ($low[$v] === $index[$v]) {
        $members = [];
        do {
            $w = array_pop($stack);
            unset($onStack[$w]);
            $members[] = $w;
        } while ($w !== $v);
        if (count($members) > 1) {
            sort($members);
            $circles[] = $members;
        }
    }
};
foreach ($files as $file) {
    if (!isset($index[$file])) {
        $connect($file);
    }
}
sort($circles);
echo json_encode(['long' => $long, 'circles' => $circles], JSON_UNESCAPED_SLASHES), "\n";
