<?php

declare(strict_types=1);

namespace Svc\Tests\Unit;

use PHPUnit\Framework\TestCase;
use Svc\Internal\Credentials;
use Svc\Internal\HttpResult;
use Svc\Internal\Sealer;
use Svc\Tests\Support\FakeTransport;
use Svc\Tests\Support\Recorder;

/** Contract 5.2 and 10 against the reference vectors of spec/vectors. */
final class SigningAndSealingTest extends TestCase
{
    private const VECTORS = __DIR__ . '/../../../spec/vectors/';

    private static function vectors(string $name): array
    {
        return json_decode((string) file_get_contents(self::VECTORS . $name), true, 512, JSON_THROW_ON_ERROR);
    }

    public function testEverySignatureVectorVerifies(): void
    {
        $vectors = self::vectors('signatures.json');
        self::assertGreaterThanOrEqual(4, \count($vectors['cases']));
        foreach ($vectors['cases'] as $case) {
            self::assertSame($case['body_sha256_hex'], hash('sha256', $case['body']), $case['name']);
            $headers = Credentials::sign($case['key_id'], $case['signing_secret'], $case['body'], (int) $case['timestamp'], $case['method']);
            self::assertSame(
                ['X-Svc-Key-Id' => $case['key_id'], 'X-Svc-Timestamp' => $case['timestamp'], 'X-Svc-Signature' => $case['signature']],
                $headers,
                $case['name'],
            );
        }
        $smoke = $vectors['cases'][0];
        $stripped = Credentials::sign($smoke['key_id'], substr($smoke['signing_secret'], 8), $smoke['body'], (int) $smoke['timestamp'], 'POST');
        self::assertSame($vectors['negative']['signature_if_prefix_stripped'], $stripped['X-Svc-Signature']);
    }

    public function testSealedBoxesOpenWithTheRecipientKeyAndTheEnvelopeFollowsTheContract(): void
    {
        $vectors = self::vectors('sealed-box.json');
        $keypair = sodium_crypto_box_keypair_from_secretkey_and_publickey(
            base64_decode($vectors['recipient_secret_key_b64']),
            base64_decode($vectors['recipient_public_key_b64']),
        );
        foreach ((array) $vectors['cases'] as $case) {
            self::assertSame($case['plaintext'], sodium_crypto_box_seal_open(base64_decode($case['ciphertext_b64']), $keypair));
        }
        self::assertFalse(sodium_crypto_box_seal_open(base64_decode($vectors['tampered_ciphertext_b64']), $keypair));

        $json = '{"severity":"major","title":"sealed"}';
        $envelope = json_decode(Sealer::create($vectors['recipient_public_key_b64'], 'svcek_1')->seal($json), true);
        self::assertSame(['v', 'alg', 'key_id', 'ciphertext'], array_keys($envelope['encrypted']));
        self::assertSame([1, 'x25519-sealedbox', 'svcek_1'], \array_slice(array_values($envelope['encrypted']), 0, 3));
        self::assertSame($json, sodium_crypto_box_seal_open(base64_decode($envelope['encrypted']['ciphertext']), $keypair));
        $anonymous = json_decode(Sealer::create($vectors['recipient_public_key_b64'], null)->seal($json), true);
        self::assertArrayNotHasKey('key_id', $anonymous['encrypted']);
        self::assertNotSame($envelope['encrypted']['ciphertext'], json_decode(Sealer::create($vectors['recipient_public_key_b64'], 'svcek_1')->seal($json), true)['encrypted']['ciphertext']);
    }

    public function testSignedAndSealedClientsSealFirstThenSignTheEnvelopeAndReSignEveryAttemptWithAFreshTimestamp(): void
    {
        $vectors = self::vectors('sealed-box.json');
        $transport = new FakeTransport([HttpResult::answer(503, '{}'), HttpResult::answer(201, '{}')]);
        $recorder = new Recorder();
        $recorder->clock = 1_800_000_000_900.0; // the retry's backoff (375 ms) crosses into the next second
        $client = $recorder->client([
            'keyId' => 'svck_test123',
            'signingSecret' => 'svc_sec_0123456789abcdef',
            'encryptionPublicKey' => $vectors['recipient_public_key_b64'],
            'captureLocation' => false,
        ], $transport);
        $client->major('Sealed and signed');
        self::assertSame(1, $client->flush()->sent);
        self::assertCount(2, $transport->requests);
        [$first, $second] = $transport->requests;
        self::assertSame($first['body'], $second['body']);
        foreach ($transport->requests as $request) {
            self::assertArrayNotHasKey('Authorization', $request['headers']);
            $expected = Credentials::sign('svck_test123', 'svc_sec_0123456789abcdef', $request['body'], (int) $request['headers']['X-Svc-Timestamp'], 'POST');
            self::assertSame($expected['X-Svc-Signature'], $request['headers']['X-Svc-Signature']);
            self::assertStringNotContainsString('svc_sec_', json_encode($request));
            self::assertArrayHasKey('encrypted', json_decode($request['body'], true));
        }
        self::assertGreaterThan((int) $first['headers']['X-Svc-Timestamp'], (int) $second['headers']['X-Svc-Timestamp']);
    }

    public function testAnInvalidEncryptionKeyDisablesTheClientWithAWarningInsteadOfSendingPlaintext(): void
    {
        foreach (['not base64!', base64_encode(str_repeat('k', 31))] as $key) {
            $transport = new FakeTransport();
            $recorder = new Recorder();
            $client = $recorder->client(['apiKey' => Recorder::API_KEY, 'encryptionPublicKey' => $key], $transport);
            $client->major('Must not leak');
            $client->flush();
            self::assertSame([], $transport->requests);
            self::assertSame(['[svc] encryptionPublicKey is not base64 of 32 bytes: client disabled, nothing is sent'], $recorder->linesOf('warning'));
        }
    }
}
