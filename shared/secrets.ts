import { GetParameterCommand, SSMClient } from '@aws-sdk/client-ssm';

/** A secret setting: its value (local runs), or the name of an SSM SecureString parameter holding it (AWS). */
export type SecretSetting = { value: string } | { parameter: string };

/**
 * Reads `NAME` or, failing that, `NAME_PARAMETER` (an SSM parameter name): secrets stay
 * out of the CloudFormation template and the function configuration on AWS.
 */
export function secretSetting(env: NodeJS.ProcessEnv, name: string): SecretSetting | undefined {
  const value = env[name];
  if (value) return { value };
  const parameter = env[`${name}_PARAMETER`];
  if (parameter) return { parameter };
  return undefined;
}

/** The secret's value, read once per container (SSM GetParameter with decryption) and kept. */
export function secretReader(setting: SecretSetting, region: string): () => Promise<string> {
  if ('value' in setting) return async () => setting.value;
  let read: Promise<string> | undefined;
  return () => {
    read ??= new SSMClient({ region }).send(new GetParameterCommand({ Name: setting.parameter, WithDecryption: true })).then((result) => {
      const value = result.Parameter?.Value;
      if (!value) throw new Error(`SSM parameter ${setting.parameter} has no value`);
      return value;
    });
    // A failed read is tried again next time.
    read.catch(() => (read = undefined));
    return read;
  };
}
