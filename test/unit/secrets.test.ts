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

  it('shares one request between reads made while it is under way', async () => {
    // Prepare
    ssm.on(GetParameterCommand).resolves({ Parameter: { Value: 'from-ssm' } });
    const read = secretReader({ parameter: '/shortsms/dlr-secret' }, 'eu-west-1');
    // Act
    const values = await Promise.all(Array.from({ length: 10 }, () => read()));
    // Assess
    expect(values).toEqual(Array(10).fill('from-ssm'));
    expect(ssm.commandCalls(GetParameterCommand)).toHaveLength(1);
  });

  it('fails a read that finds no value, and tries again next time', async () => {
    // Prepare
    ssm
      .on(GetParameterCommand)
      .resolvesOnce({ Parameter: { Name: '/p' } })
      .resolves({ Parameter: { Value: 'set since' } });
    const read = secretReader({ parameter: '/p' }, 'eu-west-1');
    // Act and assess
    await expect(read()).rejects.toThrow('SSM parameter /p has no value');
    await expect(read()).resolves.toBe('set since');
  });

  it('keeps a value for a day, then reads it again', async () => {
    // Prepare
    jest.useFakeTimers({ now: new Date('2026-11-24T00:00:00Z') });
    ssm
      .on(GetParameterCommand)
      .resolvesOnce({ Parameter: { Value: 'old' } })
      .resolves({ Parameter: { Value: 'rotated' } });
    const read = secretReader({ parameter: '/p' }, 'eu-west-1');
    try {
      // Act
      const first = await read();
      jest.setSystemTime(new Date('2026-11-24T23:59:59Z'));
      const withinTheDay = await read();
      jest.setSystemTime(new Date('2026-11-25T00:00:01Z'));
      const nextDay = await read();
      // Assess
      expect([first, withinTheDay, nextDay]).toEqual(['old', 'old', 'rotated']);
      expect(ssm.commandCalls(GetParameterCommand)).toHaveLength(2);
    } finally {
      jest.useRealTimers();
    }
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
