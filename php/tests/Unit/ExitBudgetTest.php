<?php

declare(strict_types=1);

namespace Svc\Tests\Unit;

use PHPUnit\Framework\TestCase;
use Svc\Client;
use Svc\FlushResult;
use Svc\Internal\HttpResult;
use Svc\Internal\Reachability;
use Svc\Tests\Support\FakeTransport;
use Svc\Tests\Support\Recorder;

/**
 * The exit budget, on the client's own clock (the fake transport moves it by an attempt's limit
 * when the attempt times out): a service that does not take reports holds the host `timeoutMs` in
 * the life of a client, whatever the number of flushes; once it counts as unreachable only a short
 * probe every 30 s goes out, and an answer renews the budget; what is given up is told in one line
 * with the true count and time. Processes of one host share an outage through a note.
 */
final class ExitBudgetTest extends TestCase
{
    private const BASE = ['apiKey' => Recorder::API_KEY, 'captureLocation' => false, 'timeoutMs' => 1000];

    private const HUNG = 'Operation timed out after 1000 milliseconds with 0 bytes received';

    private static function shutdown(Client $client): FlushResult
    {
        return (fn (): FlushResult => $this->flushAtShutdown())->call($client);
    }

    /** @return array{Recorder, FakeTransport, Client} */
    private static function hung(array $options = []): array
    {
        $recorder = new Recorder();
        $transport = new FakeTransport([HttpResult::failure(HttpResult::TIMEOUT, self::HUNG)], $recorder);
        return [$recorder, $transport, $recorder->client($options + self::BASE, $transport, 'http://127.0.0.1:9')];
    }

    public function testAfterOneTimeoutEveryLaterFlushAndTheShutdownCostNothingAndOneLineTellsIt(): void
    {
        [$recorder, $transport, $client] = self::hung();
        $started = $recorder->clock;
        $client->major('Job 1 failed');
        $client->flush(1000);                       // the end of the first job
        foreach (range(2, 4) as $job) {             // three more jobs, each with its flush events
            $client->major("Job {$job} failed");
            $client->flush(1000);
            $client->flush(1000);
        }
        $result = self::shutdown($client);
        self::assertCount(1, $transport->requests);
        self::assertSame(1000.0, $recorder->clock - $started, 'the whole life of the client: one timeoutMs');
        self::assertSame([4, 0], [$result->failed, $result->pending]);
        self::assertSame(
            ['[svc] 4 report(s) not delivered to http://127.0.0.1:9: no answer within 1000 ms; 1000 ms spent trying; given up so the process can exit. Is the service overloaded, or is 127.0.0.1 the right host?'],
            $recorder->linesOf('warning'),
        );
    }

    public function testFlushDeadlinesShorterThanTimeoutMsShareOneBudget(): void
    {
        [$recorder, $transport] = self::hung();
        $client = $recorder->client(self::BASE, $transport, 'http://127.0.0.1:9');
        $client->major('Cut short');
        foreach (range(1, 6) as $i) {
            $client->flush(300);
        }
        self::assertSame([300, 300, 300, 100], array_column($transport->requests, 'timeoutMs'), 'a deadline cut leaves the report at the head; the budget runs out at 1000 ms');
        self::shutdown($client);
        self::assertCount(4, $transport->requests);
        self::assertStringContainsString('1 report(s) not delivered to http://127.0.0.1:9: no answer within 100 ms; 1000 ms spent trying', $recorder->linesOf('warning')[0]);
    }

    public function testAProbeEvery30SecondsAndAnAnswerBringsTheServiceBackWithAFreshBudget(): void
    {
        [$recorder, $transport, $client] = self::hung();
        $client->major('Before the outage');
        $client->flush();
        $client->major('During the outage');
        $recorder->clock += Reachability::PROBE_INTERVAL_MS - 1;
        self::assertSame(2, $client->flush()->pending, 'no probe before 30 s');
        self::assertCount(1, $transport->requests);
        $recorder->clock += 1;
        $result = $client->flush();
        self::assertCount(2, $transport->requests, 'one probe');
        self::assertSame(Reachability::PROBE_TIMEOUT_MS, $transport->requests[1]['timeoutMs']);
        self::assertSame(2, $result->pending);
        self::assertCount(1, $recorder->linesOf('warning'), 'a process still running a minute into the outage tells it once');
        self::assertStringContainsString('http://127.0.0.1:9 has not taken reports for 32 s (no answer within 1000 ms): 2 report(s) wait in memory', $recorder->linesOf('warning')[0]);

        $recorder->clock += Reachability::PROBE_INTERVAL_MS;
        $client->flush();
        self::assertCount(3, $transport->requests);
        self::assertCount(1, $recorder->linesOf('warning'), 'not twice in one outage');

        $transport->answer([HttpResult::answer(201, '{}'), HttpResult::answer(201, '{}'), HttpResult::failure(HttpResult::TIMEOUT, self::HUNG)]);
        $recorder->clock += Reachability::PROBE_INTERVAL_MS;
        $result = $client->flush();
        self::assertSame([2, 0], [$result->sent, $result->pending], 'the probe answered: the rest goes at once');

        $client->major('Second outage');
        $client->flush();
        self::assertSame(1000, $transport->requests[5]['timeoutMs'], 'the budget renewed: a full attempt');
        self::assertSame([], $recorder->sleeps);
    }

    public function testReportsTheOutageDroppedAreCountedAndToldWhenTheServiceIsBack(): void
    {
        [$recorder, $transport, $client] = self::hung(['maxQueueSize' => 2]);
        foreach (range(1, 5) as $i) {
            $client->major("Queued {$i}");
            $client->flush();
        }
        self::assertSame(3, $client->droppedCount());
        $transport->answer([HttpResult::answer(201, '{}')]);
        $recorder->clock += Reachability::PROBE_INTERVAL_MS;
        self::assertSame(2, $client->flush()->sent);
        self::assertSame(
            ['[svc] http://127.0.0.1:9 takes reports again after 31 s: 3 report(s) were not delivered meanwhile (retries used up, or the queue full: maxQueueSize); the others are sent now'],
            $recorder->linesOf('warning'),
        );
    }

    public function testTheLineAtExitCountsTheReportsTheOutageDroppedToo(): void
    {
        [$recorder, , $client] = self::hung(['maxQueueSize' => 2]);
        foreach (range(1, 5) as $i) {
            $client->major("Queued {$i}");
            $client->flush();
        }
        self::shutdown($client);
        self::assertStringStartsWith('[svc] 5 report(s) not delivered to http://127.0.0.1:9: no answer within 1000 ms; 1000 ms spent trying', $recorder->linesOf('warning')[0]);
        self::assertCount(1, $recorder->lines);
    }

    public function testARetryAfterLongerThanTheBudgetIsNotSleptAndNoProbeGoesBeforeIt(): void
    {
        $recorder = new Recorder();
        $transport = new FakeTransport([HttpResult::answer(429, '{"message":"Too many requests."}', '120'), HttpResult::answer(201, '{}')]);
        $client = $recorder->client(self::BASE, $transport);
        $client->major('Limited');
        $result = $client->flush();
        self::assertSame([], $recorder->sleeps);
        self::assertSame(1, $result->pending);
        self::assertSame(429, $result->unavailable?->status);
        $recorder->clock += 119_000;
        $client->flush();
        self::assertCount(1, $transport->requests);
        $recorder->clock += 1_000;
        self::assertSame(1, $client->flush()->sent);
    }

    public function testSleepsCountAgainstTheBudget(): void
    {
        $recorder = new Recorder();
        $recorder->randoms = [1.0, 1.0, 1.0];
        $transport = new FakeTransport([HttpResult::answer(503, '{}')]);
        $client = $recorder->client(['timeoutMs' => 1200] + self::BASE, $transport);
        $client->major('Busy');
        $client->flush();
        self::assertSame([500], $recorder->sleeps, 'the second backoff (1000 ms) does not fit what is left of 1200 ms');
        self::assertCount(2, $transport->requests);
        self::shutdown($client);
        self::assertStringContainsString('1 report(s) not delivered to http://127.0.0.1:9: it answered 503; 500 ms spent trying', $recorder->linesOf('warning')[0]);
    }

    public function testARefusedConnectionIsToldOnceAtExitWithTheFix(): void
    {
        $recorder = new Recorder();
        $transport = new FakeTransport([HttpResult::failure(HttpResult::CONNECT, 'Failed to connect to 127.0.0.1 port 9 after 0 ms: Connection refused')]);
        $client = $recorder->client(self::BASE, $transport, 'http://user:hunter2@127.0.0.1:9');
        self::assertSame(
            ['[svc] serviceUrl "http://[REDACTED]@127.0.0.1:9" is not an http(s) address without query or credentials: client disabled, nothing is sent'],
            $recorder->linesOf('warning'),
            'the credentials of an address are never printed',
        );
        $recorder = new Recorder();
        $recorder->client(self::BASE, $transport, 'admin:hunter2@svc.internal');
        self::assertStringContainsString('serviceUrl "[REDACTED]@svc.internal" is not', $recorder->linesOf('warning')[0]);
        self::assertSame('redirects to https://[REDACTED]@svc.internal/api', (new \Svc\Internal\Debug(static fn () => null, true, []))->redact('redirects to https://admin:p@ss@svc.internal/api'));
        $recorder = new Recorder();
        $client = $recorder->client(self::BASE, $transport, 'http://127.0.0.1:9');
        $client->major('Refused 1');
        $client->major('Refused 2');
        $client->flush();
        self::shutdown($client);
        self::assertCount(1, $transport->requests);
        self::assertSame([], $recorder->sleeps);
        self::assertSame(
            ['[svc] 2 report(s) not delivered to http://127.0.0.1:9: cannot connect (Failed to connect to 127.0.0.1 port 9 after 0 ms: Connection refused); 0 ms spent trying; given up so the process can exit. Is the service running? Otherwise set SERVICE_URL (or the serviceUrl argument) to the address of your Svc service'],
            $recorder->linesOf('warning'),
        );
    }

    /** Runs `$test` with a directory of its own for the notes between processes. */
    private static function withNotes(\Closure $test): void
    {
        $notes = sys_get_temp_dir() . '/svc-notes-' . bin2hex(random_bytes(4));
        mkdir($notes);
        try {
            $test($notes);
        } finally {
            array_map('unlink', glob("{$notes}/*") ?: []);
            rmdir($notes);
        }
    }

    public function testAnotherProcessSeesTheOutageSendsNothingUntilTheProbeTimeAndOneProbesForAll(): void
    {
        self::withNotes(static function (string $notes): void {
            [$first, $transport] = self::hung();
            $first->outageNotes = $notes;
            $client = $first->client(self::BASE, $transport, 'http://127.0.0.1:9');
            $client->major('Request 1');
            self::shutdown($client);
            self::assertCount(1, $transport->requests);

            // The next request of an FPM worker: a new client, nothing in memory but the note.
            $second = new Recorder();
            [$second->clock, $second->outageNotes] = [$first->clock + 2000, $notes];
            $client = $second->client(self::BASE, $transport, 'http://127.0.0.1:9');
            $client->major('Request 2');
            self::assertSame(1, $client->flush(1000)->pending);
            self::shutdown($client);
            self::assertCount(1, $transport->requests, 'no attempt: another process found the service unreachable');
            self::assertSame(
                ['[svc] 1 report(s) not delivered to http://127.0.0.1:9: no answer within 1000 ms (found by another process of this host 3 s ago); 0 ms spent trying; given up so the process can exit. Is the service overloaded, or is 127.0.0.1 the right host?'],
                $second->linesOf('warning'),
            );

            // At the probe time one process probes (1 s at most); the others wait for its answer.
            $third = new Recorder();
            [$third->clock, $third->outageNotes] = [$first->clock + Reachability::PROBE_INTERVAL_MS, $notes];
            $transport->answer([HttpResult::answer(201, '{}')]);
            $prober = $third->client(self::BASE, $transport, 'http://127.0.0.1:9');
            $waiter = $third->client(self::BASE, $transport, 'http://127.0.0.1:9');
            $waiter->major('Waits');
            self::assertSame(1, $waiter->flush()->sent, 'the probe time has come: this one probes');
            $prober->major('Goes');
            self::assertSame(1, $prober->flush()->sent, 'the service answered: the note is gone');
            self::assertSame([], glob("{$notes}/*"));
        });
    }

    public function testWhileOneProcessProbesTheOthersWait(): void
    {
        self::withNotes(static function (string $notes): void {
            [$recorder, $transport] = self::hung();
            $recorder->outageNotes = $notes;
            $client = $recorder->client(['timeoutMs' => 3000] + self::BASE, $transport, 'http://127.0.0.1:9');
            $client->major('Down');
            $client->flush();
            $recorder->clock += Reachability::PROBE_INTERVAL_MS;
            $other = $recorder->client(['timeoutMs' => 3000] + self::BASE, $transport, 'http://127.0.0.1:9');
            $other->major('Claims the probe');
            $other->flush();                                  // claims, probes, times out
            $client->flush();                                 // its own probe time has come, but the note says wait
            self::assertSame([3000, Reachability::PROBE_TIMEOUT_MS], array_column($transport->requests, 'timeoutMs'));
            $recorder->clock += Reachability::PROBE_INTERVAL_MS;
            $client->flush();
            self::assertCount(3, $transport->requests, 'its turn came with the next probe time');
        });
    }

    public function testAServiceThatTakesEveryReportLeavesNoLine(): void
    {
        $recorder = new Recorder();
        $client = $recorder->client(self::BASE, new FakeTransport());
        $client->major('Fine');
        self::assertSame(1, self::shutdown($client)->sent);
        self::assertSame([], $recorder->lines);
    }
}
