<?php

declare(strict_types=1);

namespace Svc\Monolog;

use Monolog\Handler\AbstractHandler;
use Monolog\LogRecord;
use Svc\Client;
use Svc\Enum\Priority;
use Svc\Enum\Severity;
use Svc\Integration\Failures;
use Svc\Integration\Levels;
use Svc\Integration\Reported;
use Svc\Internal\Location;

/**
 * A Monolog handler that turns log records into cards, the failure table's `log-record` kind (the
 * same rows in every SDK, `Svc\Integration\Failures`): the PSR-3 level gives the severity and
 * priority, the title ends in the channel (`(payments log)`), the tags are `monolog`, `server`,
 * `log-record`, `channel:<name>`. A record with an `exception` in its context is reported with
 * that Throwable (its class and masked message as the title, its trace as the description; the
 * rest of the context is not sent), any other record with its masked first line as the title and
 * the message and the context as JSON as the description, without the keys `Context` drops (obvious
 * secrets, and `$dropContextKeys`). `extra` (what processors add) is never sent. A Throwable the framework integration already handled (the exception handler
 * reports, then logs) is skipped, so one error makes one card.
 *
 * Works with Monolog 2 (records are arrays) and Monolog 3 (records are `LogRecord` objects): the
 * record is read through array access, which both provide. Reporting never throws into the logger.
 */
class SvcHandler extends AbstractHandler
{
    /** The integration's name in the failure table (the `{framework}` tag). */
    public const FRAMEWORK = 'monolog';

    private readonly ?string $severity;

    private readonly ?string $priority;

    private readonly Context $context;

    /**
     * @param int|string|\Monolog\Level $level the lowest level handled (default `error`)
     * @param Severity|string|null $severity every card this severity instead of the level's (failure table)
     * @param Priority|string|null $priority every card this priority instead of the level's (failure table)
     * @param list<string> $dropContextKeys context keys never sent, besides `Context::DEFAULT_DROPPED_KEYS`
     *        (`password`, `secret`, `token`, `authorization`...): a key holding one of these among its words
     *        (`user_ssn`, `ssnHash` for `ssn`), case-insensitively, at any depth
     */
    public function __construct(
        private readonly Client $client,
        mixed $level = 'error',
        bool $bubble = true,
        Severity|string|null $severity = null,
        Priority|string|null $priority = null,
        iterable $dropContextKeys = [],
    ) {
        parent::__construct($level, $bubble);
        $this->severity = Levels::severity($severity);
        $this->priority = Levels::priority($priority);
        $this->context = new Context($dropContextKeys);
    }

    /** @param array<string, mixed>|LogRecord $record */
    public function handle(array|LogRecord $record): bool
    {
        if (!$this->isHandling($record)) {
            return false;
        }
        try {
            $this->report($record);
        } catch (\Throwable) {
            // A handler must never break the app's logging.
        }
        return $this->bubble === false;
    }

    /** @param array<string, mixed>|LogRecord $record */
    private function report(array|LogRecord $record): void
    {
        $context = \is_array($record['context'] ?? null) ? $record['context'] : [];
        $exception = $context['exception'] ?? null;
        if ($exception instanceof \Throwable && !Reported::mark($exception)) {
            return;
        }
        $message = (string) ($record['message'] ?? '');
        $where = ['channel' => (string) ($record['channel'] ?? 'app')];
        $report = Failures::report('log-record', self::FRAMEWORK, $exception instanceof \Throwable ? $exception : $message, $where, (string) ($record['level_name'] ?? 'error'));
        if ($report === null) {
            return;
        }
        $method = $report->method($this->severity, $this->priority);
        if ($exception instanceof \Throwable) {
            $this->client->{$method}($report->title, $exception, $report->tags);
            return;
        }
        $description = $this->context->describe($message, $context);
        Location::skippingDependencies(fn () => $this->client->{$method}($report->title, $description, $report->tags));
    }
}
