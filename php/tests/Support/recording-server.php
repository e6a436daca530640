<?php

// A recording HTTP/1.1 server for the PHP black-box tests: `php recording-server.php <dir>` listens
// on 127.0.0.1:0, prints `port <n>`, keeps connections alive, appends every request to
// <dir>/requests.jsonl (with the number of the TCP connection it came on) and answers from the
// script in <dir>/script.json (request i gets reply i, the last reply repeats): status, body,
// headers, delayMs, or `drop` to close the connection without answering. Exits when stdin closes.

declare(strict_types=1);

$dir = $argv[1] ?? exit(2);
$server = stream_socket_server('tcp://127.0.0.1:0', $errno, $error) ?: exit(1);
$port = (int) substr((string) strrchr((string) stream_socket_get_name($server, false), ':'), 1);
fwrite(STDOUT, "port {$port}\n");
fflush(STDOUT);

$clients = [];
$buffers = [];
$connections = 0;
$served = 0;

function reply(int $index, string $dir): array
{
    $script = is_file("{$dir}/script.json") ? json_decode((string) file_get_contents("{$dir}/script.json"), true) : [];
    if (!is_array($script) || $script === []) {
        return ['status' => 201, 'body' => '{"deduplicated":false}'];
    }
    return $script[min($index, count($script) - 1)];
}

while (true) {
    $read = array_merge([$server, STDIN], array_values($clients));
    $write = $except = null;
    if (stream_select($read, $write, $except, null) === false) {
        exit(1);
    }
    foreach ($read as $stream) {
        if ($stream === STDIN) {
            if (fread(STDIN, 1024) === '' && feof(STDIN)) {
                exit(0);
            }
            continue;
        }
        if ($stream === $server) {
            $client = stream_socket_accept($server, 0);
            if ($client !== false) {
                $id = ++$connections;
                $clients[$id] = $client;
                $buffers[$id] = '';
            }
            continue;
        }
        $id = array_search($stream, $clients, true);
        $chunk = fread($stream, 65536);
        if ($chunk === '' || $chunk === false) {
            fclose($stream);
            unset($clients[$id], $buffers[$id]);
            continue;
        }
        $buffers[$id] .= $chunk;
        // Serve every complete request in the buffer (headers, then Content-Length bytes of body).
        while (($end = strpos($buffers[$id], "\r\n\r\n")) !== false) {
            $lines = explode("\r\n", substr($buffers[$id], 0, $end));
            [$method, $path] = explode(' ', array_shift($lines));
            $headers = [];
            foreach ($lines as $line) {
                [$name, $value] = array_map('trim', explode(':', $line, 2));
                $headers[strtolower($name)] = $value;
            }
            $length = (int) ($headers['content-length'] ?? 0);
            if (strlen($buffers[$id]) < $end + 4 + $length) {
                break;
            }
            $body = substr($buffers[$id], $end + 4, $length);
            $buffers[$id] = (string) substr($buffers[$id], $end + 4 + $length);
            $record = ['connection' => $id, 'method' => $method, 'path' => $path, 'headers' => $headers, 'body' => $body];
            file_put_contents("{$dir}/requests.jsonl", json_encode($record) . "\n", FILE_APPEND);
            $reply = reply($served++, $dir);
            usleep((int) (($reply['delayMs'] ?? 0) * 1000));
            if (!empty($reply['drop'])) {
                fclose($stream);
                unset($clients[$id], $buffers[$id]);
                break;
            }
            $text = $reply['body'] ?? '';
            $head = "HTTP/1.1 {$reply['status']} X\r\nContent-Type: application/json\r\nContent-Length: " . strlen($text) . "\r\n";
            foreach ($reply['headers'] ?? [] as $name => $value) {
                $head .= "{$name}: {$value}\r\n";
            }
            @fwrite($stream, $head . "\r\n" . $text);
        }
    }
}
