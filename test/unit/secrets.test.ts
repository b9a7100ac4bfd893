import { GetParameterCommand, SSMClient } from '@aws-sdk/client-ssm';
import { mockClient } from 'aws-sdk-client-mock';
import { readConfig } from '../../shared/config';
import { secretReader, secretSetting } from '../../shared/secrets';

const ssm = mockClient(SSMClient);
beforeEach(() => ssm.reset());

describe('secrets from the environment or SSM Parameter Store', () => {
  it('takes a value from NAME, or a parameter name from NAME_PARAMETER', () => {
    expect(secretSetting({ DLR_SECRET: 's3cret-value-0123' }, 'DLR_SECRET')).toEqual({ value: 's3cret-value-0123' });
    expect(secretSetting({ DLR_SECRET_PARAMETER: '/shortsms/dlr-secret' }, 'DLR_SECRET')).toEqual({ parameter: '/shortsms/dlr-secret' });
    expect(secretSetting({}, 'DLR_SECRET')).toBeUndefined();
  });

  it('reads a parameter once, decrypted, and keeps it', async () => {
    // Prepare
    ssm.on(GetParameterCommand).resolves({ Parameter: { Name: '/shortsms/kannel-password', Value: 'from-ssm', Type: 'SecureString' } });
    const read = secretReader({ parameter: '/shortsms/kannel-password' }, 'eu-west-1');
    // Act
    const values = [await read(), await read()];
    // Assess
    expect(values).toEqual(['from-ssm', 'from-ssm']);
    expect(ssm.commandCalls(GetParameterCommand).map((call) => call.args[0].input)).toEqual([
      { Name: '/shortsms/kannel-password', WithDecryption: true },
    ]);
  });

  it('tries again after a failed read', async () => {
    // Prepare
    ssm
      .on(GetParameterCommand)
      .rejectsOnce(new Error('throttled'))
      .resolves({ Parameter: { Value: 'second time' } });
    const read = secretReader({ parameter: '/p' }, 'eu-west-1');
    // Act and assess
    await expect(read()).rejects.toThrow('throttled');
    await expect(read()).resolves.toBe('second time');
  });

  it('configures the kannel gateway with parameter names and no secret values', () => {
    const config = readConfig({
      SMS_GATEWAY: 'kannel',
      KANNEL_SENDSMS_URL: 'http://kannel.internal:13013/cgi-bin/sendsms',
      KANNEL_USERNAME: 'shortsms',
      KANNEL_PASSWORD_PARAMETER: '/shortsms/kannel-password',
      DLR_SECRET_PARAMETER: '/shortsms/dlr-secret',
      DLR_BASE_URL: 'https://api.example.com',
    });
    expect(config.kannel).toMatchObject({
      password: { parameter: '/shortsms/kannel-password' },
      reportSecret: { parameter: '/shortsms/dlr-secret' },
    });
    expect(() =>
      readConfig({
        SMS_GATEWAY: 'kannel',
        KANNEL_SENDSMS_URL: 'http://k',
        KANNEL_USERNAME: 'u',
        DLR_SECRET: 'x'.repeat(16),
        DLR_BASE_URL: 'https://a',
      }),
    ).toThrow('Missing required setting KANNEL_PASSWORD or KANNEL_PASSWORD_PARAMETER');
    expect(() =>
      readConfig({
        SMS_GATEWAY: 'kannel',
        KANNEL_SENDSMS_URL: 'http://k',
        KANNEL_USERNAME: 'u',
        KANNEL_PASSWORD: 'p',
        DLR_SECRET: 'short',
        DLR_BASE_URL: 'https://a',
      }),
    ).toThrow('DLR_SECRET must be at least 16 characters');
  });
});
