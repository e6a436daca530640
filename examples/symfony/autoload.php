<?php

// Stands in for Composer's vendor/autoload.php, so this example runs on Debian 12's packages with
// no Composer: Symfony 5.4's FrameworkBundle (php-symfony-framework-bundle, which loads Console
// and Yaml when installed), Dotenv, Messenger, Monolog 2.9, the Svc SDK from this repository
// (php/autoload.php maps Svc\ to php/src), and the app's own App\ classes (src/).

declare(strict_types=1);

require_once 'Symfony/Bundle/FrameworkBundle/autoload.php'; // /usr/share/php, on PHP's include path
require_once 'Symfony/Component/Dotenv/autoload.php';
require_once 'Symfony/Component/Messenger/autoload.php';
require_once 'Monolog/autoload.php';
require_once __DIR__ . '/../../php/autoload.php';

spl_autoload_register(static function (string $class): void {
    if (str_starts_with($class, 'App\\')) {
        $file = __DIR__ . '/src/' . str_replace('\\', '/', substr($class, 4)) . '.php';
        if (is_file($file)) {
            require $file;
        }
    }
});
