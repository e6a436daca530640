import { describe, expect, it } from 'vitest';
import {
  configKey,
  mapsUploaded,
  sharedSettings,
  plainOptionNames,
  privateSettings,
  publicSettings,
  toSdkOptions,
} from '../../../src/runtime/shared/config';

describe('runtime config keys, from the spec', () => {
  it('keys each setting by Nuxt`s name of its variable (contract 5.5: serviceKeyId, public.serviceApiKey)', () => {
    expect(configKey('keyId')).toBe('serviceKeyId');
    expect(configKey('signingSecret')).toBe('serviceSigningSecret');
    expect(configKey('apiKey')).toBe('serviceApiKey');
    expect(configKey('serviceUrl')).toBe('serviceUrl');
    expect(configKey('encryptionPublicKey')).toBe('serviceEncryptionPublicKey');
  });
  it('keeps the other options under svc', () => {
    expect(plainOptionNames()).toContain('sampleRate');
    expect(plainOptionNames()).not.toContain('apiKey');
    expect(plainOptionNames()).not.toContain('environment');
  });
  it('reads public and private settings back, empty as unset', () => {
    const config = {
      serviceKeyId: 'svck_1',
      serviceSigningSecret: '',
      serviceUrl: 'https://svc.example.com',
      serviceEnvironment: 'production',
      serviceApiKey: 'svc_pub_x',
    };
    expect(privateSettings(config)).toEqual({ keyId: 'svck_1' });
    expect(publicSettings(config)).toEqual({
      serviceUrl: 'https://svc.example.com',
      apiKey: 'svc_pub_x',
      environment: 'production',
    });
    expect(sharedSettings(publicSettings(config))).toEqual({
      serviceUrl: 'https://svc.example.com',
      environment: 'production',
    });
  });
});

describe('toSdkOptions', () => {
  it('drops the empty defaults so unset values add nothing', () => {
    expect(
      toSdkOptions({ environment: '', release: '1.0', apiKey: '', sampleRate: 0, debug: false }),
    ).toEqual({ release: '1.0', sampleRate: 0, debug: false });
  });
  it('splits defaultTags given as a CSV environment variable; keeps arrays', () => {
    expect(toSdkOptions({ defaultTags: ' a, b ,,c' })).toEqual({ defaultTags: ['a', 'b', 'c'] });
    expect(toSdkOptions({ defaultTags: ['x'] })).toEqual({ defaultTags: ['x'] });
  });
  it('tolerates a missing config', () => {
    expect(toSdkOptions(undefined)).toEqual({});
  });
});

describe("sourceMaps: 'upload' in runtime config", () => {
  it('is no SDK option (each side keeps its default) but tells the browser its maps were uploaded', () => {
    expect(toSdkOptions({ sourceMaps: 'upload', sampleRate: 0.5 })).toEqual({ sampleRate: 0.5 });
    expect(mapsUploaded({ sourceMaps: 'upload' })).toBe(true);
    expect(mapsUploaded({ sourceMaps: true })).toBe(false);
    expect(mapsUploaded(undefined)).toBe(false);
  });
});
