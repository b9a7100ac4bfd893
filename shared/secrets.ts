import { SSMProvider } from '@aws-lambda-powertools/parameters/ssm';

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

/**
 * How long a read secret is kept: in practice a container's whole life (Lambda replaces
 * execution environments well within a day), and a rotated secret still arrives in a
 * long-lived local process by the next day.
 */
const KEEP_SECONDS = 24 * 60 * 60;

/** The secret's value, read once per container (SSM GetParameter with decryption, cached by Powertools) and kept. */
export function secretReader(setting: SecretSetting, region: string): () => Promise<string> {
  if ('value' in setting) return async () => setting.value;
  // Its own provider: the value is cached in it, apart from other readers'.
  const ssm = new SSMProvider({ clientConfig: { region } });
  let reading: Promise<string> | undefined;
  return () => {
    // Parallel first reads (a batch's submits at a cold start) share one request. A failed
    // read is not cached: it is tried again next time.
    reading ??= ssm
      .get(setting.parameter, { decrypt: true, maxAge: KEEP_SECONDS })
      .then((value) => {
        if (!value) throw new Error(`SSM parameter ${setting.parameter} has no value`);
        return value;
      })
      .finally(() => {
        reading = undefined;
      });
    return reading;
  };
}
