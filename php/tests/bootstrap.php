<?php

// PHPUnit bootstrap: the package's own autoloader (no Composer), one for the test helpers, and
// Debian's framework packages when installed (the laravel, symfony and monolog groups need them;
// tests/phpunit.test.ts leaves those groups out, naming the packages, when they are missing).

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

foreach (['Illuminate/autoload.php', 'Symfony/Bundle/FrameworkBundle/autoload.php', 'Symfony/Component/Messenger/autoload.php',
    'Symfony/Component/Dotenv/autoload.php', 'Monolog/autoload.php'] as $autoloader) {
    if (stream_resolve_include_path($autoloader) !== false) {
        require_once $autoloader;
    }
}
