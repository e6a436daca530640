<?php

// PHPUnit bootstrap: the package's own autoloader (no Composer), plus one for the test helpers.

declare(strict_types=1);

require __DIR__ . '/../autoload.php';

spl_autoload_register(static function (string $class): void {
    if (str_starts_with($class, 'Svc\\Tests\\')) {
        $file = __DIR__ . '/' . str_replace('\\', '/', substr($class, 10)) . '.php';
        if (is_file($file)) {
            require $file;
        }
    }
});
