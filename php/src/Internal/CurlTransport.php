<?php

declare(strict_types=1);

namespace Svc\Internal;

/**
 * The HTTP client: one persistent curl handle per client, reused for every request, so reports
 * after the first ride the same keep-alive connection (contract 8.4). Redirects (an http -> https
 * move) are followed like `fetch` follows them for the TypeScript SDK, up to 5, http(s) only, as a
 * POST of the same bytes (301, 302 and 303 too: the report must arrive); curl keeps the
 * `Authorization` header to the first host, as `fetch` does. The delivery warns about them.
 * `Expect: 100-continue` is turned off (it costs a round trip on bodies over 1 KiB).
 */
final class CurlTransport implements Transport
{
    /** curl error numbers by failure kind (the rest are plain network failures). */
    private const KINDS = [
        6 => HttpResult::DNS, // CURLE_COULDNT_RESOLVE_HOST
        7 => HttpResult::CONNECT, // CURLE_COULDNT_CONNECT
        1 => HttpResult::REDIRECT, // CURLE_UNSUPPORTED_PROTOCOL (a redirect to another scheme)
        28 => HttpResult::TIMEOUT, // CURLE_OPERATION_TIMEDOUT
        35 => HttpResult::TLS, // CURLE_SSL_CONNECT_ERROR
        51 => HttpResult::TLS, // CURLE_PEER_FAILED_VERIFICATION
        58 => HttpResult::TLS, // CURLE_SSL_CERTPROBLEM
        47 => HttpResult::REDIRECT, // CURLE_TOO_MANY_REDIRECTS
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
            CURLOPT_FOLLOWLOCATION => true,
            CURLOPT_MAXREDIRS => 5,
            CURLOPT_POSTREDIR => CURL_REDIR_POST_ALL,
            CURLOPT_PROTOCOLS => CURLPROTO_HTTP | CURLPROTO_HTTPS,
            CURLOPT_REDIR_PROTOCOLS => CURLPROTO_HTTP | CURLPROTO_HTTPS,
            CURLOPT_NOSIGNAL => true,
            CURLOPT_TIMEOUT_MS => $timeoutMs,
            CURLOPT_CONNECTTIMEOUT_MS => $timeoutMs,
            CURLOPT_HEADERFUNCTION => static function ($curl, string $line) use (&$retryAfter): int {
                if (str_starts_with($line, 'HTTP/')) {
                    $retryAfter = null; // a new response (after a redirect or a 100)
                } elseif (stripos($line, 'retry-after:') === 0) {
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
        $redirected = (int) curl_getinfo($handle, CURLINFO_REDIRECT_COUNT) > 0 ? (string) curl_getinfo($handle, CURLINFO_EFFECTIVE_URL) : null;
        return HttpResult::answer((int) curl_getinfo($handle, CURLINFO_RESPONSE_CODE), $answer, $retryAfter, $redirected);
    }
}
