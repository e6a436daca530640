<?php

declare(strict_types=1);

namespace Svc\Internal;

/**
 * The HTTP client: one persistent curl handle per client, reused for every request, so reports
 * after the first ride the same keep-alive connection (contract 8.4). No redirects are followed;
 * `Expect: 100-continue` is turned off (it costs a round trip on bodies over 1 KiB).
 */
final class CurlTransport implements Transport
{
    /** curl error numbers by failure kind (the rest are plain network failures). */
    private const KINDS = [
        6 => HttpResult::DNS, // CURLE_COULDNT_RESOLVE_HOST
        7 => HttpResult::CONNECT, // CURLE_COULDNT_CONNECT
        28 => HttpResult::TIMEOUT, // CURLE_OPERATION_TIMEDOUT
        35 => HttpResult::TLS, // CURLE_SSL_CONNECT_ERROR
        51 => HttpResult::TLS, // CURLE_PEER_FAILED_VERIFICATION
        58 => HttpResult::TLS, // CURLE_SSL_CERTPROBLEM
        60 => HttpResult::TLS, // CURLE_SSL_CACERT
        77 => HttpResult::TLS, // CURLE_SSL_CACERT_BADFILE
    ];

    private ?\CurlHandle $handle = null;

    public function __construct(private readonly string $userAgent)
    {
    }

    public function post(string $url, array $headers, string $body, int $timeoutMs): HttpResult
    {
        $handle = $this->handle ??= curl_init();
        $lines = ['Expect:'];
        foreach ($headers as $name => $value) {
            $lines[] = $name . ': ' . $value;
        }
        $retryAfter = null;
        curl_setopt_array($handle, [
            CURLOPT_URL => $url,
            CURLOPT_POST => true,
            CURLOPT_POSTFIELDS => $body,
            CURLOPT_HTTPHEADER => $lines,
            CURLOPT_USERAGENT => $this->userAgent,
            CURLOPT_RETURNTRANSFER => true,
            CURLOPT_FOLLOWLOCATION => false,
            CURLOPT_PROTOCOLS => CURLPROTO_HTTP | CURLPROTO_HTTPS,
            CURLOPT_NOSIGNAL => true,
            CURLOPT_TIMEOUT_MS => $timeoutMs,
            CURLOPT_CONNECTTIMEOUT_MS => $timeoutMs,
            CURLOPT_HEADERFUNCTION => static function ($curl, string $line) use (&$retryAfter): int {
                if (stripos($line, 'retry-after:') === 0) {
                    $retryAfter = trim(substr($line, 12));
                }
                return \strlen($line);
            },
        ]);
        $answer = curl_exec($handle);
        if (!\is_string($answer)) {
            $errno = curl_errno($handle);
            return HttpResult::failure(self::KINDS[$errno] ?? HttpResult::NETWORK, curl_error($handle) ?: "curl error {$errno}");
        }
        return HttpResult::answer((int) curl_getinfo($handle, CURLINFO_RESPONSE_CODE), $answer, $retryAfter);
    }
}
