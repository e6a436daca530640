// The variables of every integration (src/kit/settings.ts): server sides read SERVICE_*, browser
// builds the framework's public variables, named from the spec.
import { describe, expect, it } from 'vitest';
import {
  firstSet,
  publicSettingNames,
  publicVariable,
  readBrowserSettings,
  readServerSettings,
  serverClientConfig,
  settingNames,
  settingVariable,
} from '../../src/kit/settings.ts';

const ALL = {
  SERVICE_URL: 'https://svc.example.com',
  SERVICE_API_KEY: 'svc_pub_server',
  SERVICE_KEY_ID: 'svck_1',
  SERVICE_SIGNING_SECRET: 'svc_sec_2',
  SERVICE_ENCRYPTION_PUBLIC_KEY: 'base64key',
  SERVICE_ENCRYPTION_KEY_ID: 'svcek_3',
  SERVICE_ENVIRONMENT: 'staging',
  SERVICE_RELEASE: '1.4.0',
};

describe('settings from variables', () => {
  it('names the same eight variables for every server side', () => {
    expect(settingNames().map(settingVariable)).toEqual(Object.keys(ALL));
    expect(readServerSettings(ALL)).toEqual({
      serviceUrl: 'https://svc.example.com',
      apiKey: 'svc_pub_server',
      keyId: 'svck_1',
      signingSecret: 'svc_sec_2',
      encryptionPublicKey: 'base64key',
      encryptionKeyId: 'svcek_3',
      environment: 'staging',
      release: '1.4.0',
    });
  });

  it('counts empty and blank variables as unset', () => {
    expect(readServerSettings({ SERVICE_KEY_ID: '', SERVICE_RELEASE: '  ' })).toEqual({});
  });

  it('names the public variables per framework (contract 5.5), never a secret', () => {
    expect(publicVariable('vite', 'apiKey')).toBe('VITE_SERVICE_API_KEY');
    expect(publicVariable('next', 'apiKey')).toBe('NEXT_PUBLIC_SERVICE_API_KEY');
    expect(publicVariable('nuxt', 'serviceUrl')).toBe('NUXT_PUBLIC_SERVICE_URL');
    expect(publicSettingNames()).toEqual([
      'serviceUrl',
      'apiKey',
      'encryptionPublicKey',
      'encryptionKeyId',
      'environment',
      'release',
    ]);
  });

  it('a browser build reads public variables; address, environment and release fall back to the server variable, keys never', () => {
    expect(readBrowserSettings(ALL, 'vite')).toEqual({
      serviceUrl: 'https://svc.example.com',
      environment: 'staging',
      release: '1.4.0',
    });
    expect(
      readBrowserSettings(
        { ...ALL, NEXT_PUBLIC_SERVICE_API_KEY: 'svc_pub_web', NEXT_PUBLIC_SERVICE_RELEASE: '2' },
        'next',
      ),
    ).toEqual({
      serviceUrl: 'https://svc.example.com',
      apiKey: 'svc_pub_web',
      environment: 'staging',
      release: '2',
    });
  });

  it('firstSet: the first layer that sets a value wins, empty strings do not set', () => {
    expect(
      firstSet<{ a: string; b: string }>({ a: '' }, { a: 'env', b: 'env' }, { b: 'x' }),
    ).toEqual({ a: 'env', b: 'env' });
  });

  it("serverClientConfig: options (less the integration's own), then SERVICE_*, then NODE_ENV", () => {
    const env = {
      SERVICE_URL: 'http://127.0.0.1:9',
      SERVICE_KEY_ID: 'svck_x',
      SERVICE_RELEASE: '',
      NODE_ENV: 'production',
    };
    const own = ['method'];
    const options = { release: '2', method: 'minorLow', debug: true };
    expect(serverClientConfig(options, env, own)).toEqual({
      options: { keyId: 'svck_x', release: '2', debug: true, environment: 'production' },
      settings: { serviceUrl: 'http://127.0.0.1:9' },
    });
    expect(serverClientConfig({ serviceUrl: 'http://x' }, {}, own)).toEqual({
      options: {},
      settings: { serviceUrl: 'http://x' },
    });
  });
});
