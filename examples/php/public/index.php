<?php

// A minimal front controller: every request comes here (`php -S 127.0.0.1:8080 public/index.php`).
// `GET /` is healthy, `GET /orders/<id>` fails with an uncaught exception (one card, delivered at
// the end of the request), `GET /missing` answers 404 (not reported).

declare(strict_types=1);

$svc = require __DIR__ . '/../bootstrap.php';

$path = (string) parse_url($_SERVER['REQUEST_URI'] ?? '/', PHP_URL_PATH);

if ($path === '/') {
    echo "ok\n";
} elseif (preg_match('#^/orders/(\d+)$#', $path, $match) === 1) {
    echo load_order((int) $match[1]);
} else {
    http_response_code(404);
    echo "not found\n";
}

function load_order(int $id): string
{
    try {
        throw new PDOException("SQLSTATE[HY000]: no such table: orders (order {$id})");
    } catch (PDOException $error) {
        throw new RuntimeException('Could not load the order', 0, $error);
    }
}
