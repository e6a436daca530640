<?php

declare(strict_types=1);

namespace Svc\Internal;

/** One HTTP POST; the seam tests replace (the client never talks to curl directly). */
interface Transport
{
    /** @param array<string, string> $headers */
    public function post(string $url, array $headers, string $body, int $timeoutMs): HttpResult;
}
