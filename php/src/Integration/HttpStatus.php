<?php

declare(strict_types=1);

namespace Svc\Integration;

use Symfony\Component\HttpKernel\Exception\HttpExceptionInterface;

/**
 * The HTTP status a framework answers an exception of a request with, so an integration can tell a
 * server error (5xx, the failure table's `server-error`) from the visitor's mistake (3xx, 4xx:
 * `client-error`, no card): an HTTP exception's own status (`NotFoundHttpException`, Laravel's
 * `abort(404)`), the status of the exceptions Laravel and Symfony turn into 4xx answers
 * themselves, 500 for anything else. Classes that are not installed match nothing.
 *
 * @internal shared by the Laravel and Symfony integrations
 */
final class HttpStatus
{
    /** Exceptions the frameworks answer with a 4xx of their own, by class. */
    private const STATUS = [
        // Symfony: a bad request or host (Laravel answers a bad host 404), and its security layer.
        'Symfony\Component\HttpFoundation\Exception\RequestExceptionInterface' => 400,
        'Symfony\Component\Security\Core\Exception\AuthenticationException' => 401,
        'Symfony\Component\Security\Core\Exception\AccessDeniedException' => 403,
        // Laravel's exception handler (`prepareException`, `unauthenticated`).
        'Illuminate\Auth\AuthenticationException' => 401,
        'Illuminate\Auth\Access\AuthorizationException' => 403,
        'Illuminate\Database\Eloquent\ModelNotFoundException' => 404,
        'Illuminate\Database\RecordsNotFoundException' => 404,
        'Illuminate\Session\TokenMismatchException' => 419,
    ];

    public static function of(\Throwable $error): int
    {
        if ($error instanceof HttpExceptionInterface) {
            return $error->getStatusCode();
        }
        if ($error instanceof \Illuminate\Validation\ValidationException) {
            return (int) $error->status;
        }
        if ($error instanceof \Illuminate\Http\Exceptions\HttpResponseException) {
            return $error->getResponse()->getStatusCode();
        }
        foreach (self::STATUS as $class => $status) {
            if ($error instanceof $class) {
                return $status;
            }
        }
        return 500;
    }

    /** The failure kind of a request's exception: `server-error` for a 5xx, `client-error` otherwise. */
    public static function kind(\Throwable $error): string
    {
        return self::of($error) >= 500 ? 'server-error' : 'client-error';
    }
}
