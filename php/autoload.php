<?php

// The package's own PSR-4 autoloader, for apps without Composer: `require 'path/to/autoload.php';`.
// Namespace `Svc\` maps to `src/`; a class is loaded from `<Class>.php`, or from `<Class>.gen.php`
// for the files emitted by the generator (php/src/Exception, php/src/Generated). With Composer, the
// package's composer.json declares the same PSR-4 root plus a classmap for the generated files.

declare(strict_types=1);

spl_autoload_register(static function (string $class): void {
    if (strncmp($class, 'Svc\\', 4) !== 0) {
        return;
    }
    $base = __DIR__ . '/src/' . str_replace('\\', '/', substr($class, 4));
    foreach (['.php', '.gen.php'] as $suffix) {
        if (is_file($base . $suffix)) {
            require $base . $suffix;
            return;
        }
    }
});
