<?php

// `php examples/php/report.php "some title"`: reports one card and prints what became of it.
// Configured from the environment only: SERVICE_URL (optional), SERVICE_API_KEY, or SERVICE_KEY_ID +
// SERVICE_SIGNING_SECRET, and optionally SERVICE_ENCRYPTION_PUBLIC_KEY / SERVICE_ENCRYPTION_KEY_ID.

declare(strict_types=1);

$svc = require __DIR__ . '/bootstrap.php';

$title = $argv[1] ?? 'Example report';
$svc->major($title, "{$title}: reported by examples/php/report.php");
$result = $svc->flush();
printf("sent %d, deduplicated %d, failed %d\n", $result->sent, $result->deduplicated, $result->failed);
foreach ($result->errors as $error) {
    printf("%s: %s\n", $error::class, $error->getMessage());
}
exit($result->failed === 0 ? 0 : 1);
