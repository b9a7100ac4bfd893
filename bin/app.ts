import { fileURLToPath } from 'node:url';
import { App, Validations } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import { apiLimitsFromContext } from '../lib/api';
import { ServiceStack } from '../lib/service-stack';
import { tableIndexesFromContext } from '../lib/storage';

/**
 * The CDK app. Optional context, e.g. `cdk deploy -c shortDomain=go.example.com
 * -c shortDomainCertificateArn=arn:aws:acm:us-east-1:…`, serves short links on a
 * domain of one's own; `-c smsGateway=aws -c awsSmsConfigurationSet=NAME
 * [-c awsSmsOriginationIdentity=ID]` sends through AWS End User Messaging SMS;
 * `-c apiThrottleRate=N [-c apiThrottleBurst=N]` sets the HTTP API's stage throttle and
 * `-c apiRateLimit=N` each account's default requests per second (API_RATE_LIMIT);
 * `-c tableIndexes=N` declares only the table's first N indexes, to add them to an
 * existing table one deployment at a time (docs/data-model.md, section 9).
 */
const app = new App();
const shortDomain = context(app, 'shortDomain');
const certificateArn = context(app, 'shortDomainCertificateArn');
if (Boolean(shortDomain) !== Boolean(certificateArn)) {
  throw new Error('shortDomain and shortDomainCertificateArn go together: CloudFront needs the certificate for the name');
}

const smsGateway = context(app, 'smsGateway') ?? 'simulator';
if (smsGateway !== 'simulator' && smsGateway !== 'aws' && smsGateway !== 'kannel')
  throw new Error('Context smsGateway must be simulator, aws or kannel');
const kannelSmsc = context(app, 'kannelSmsc');
const kannel =
  smsGateway === 'kannel'
    ? {
        sendsmsUrl: required('kannelSendsmsUrl'),
        username: required('kannelUsername'),
        passwordParameter: required('kannelPasswordParameter'),
        reportSecretParameter: required('kannelReportSecretParameter'),
        ...(kannelSmsc && { smsc: kannelSmsc }),
      }
    : undefined;
const configurationSetName = context(app, 'awsSmsConfigurationSet');
if (smsGateway === 'aws' && !configurationSetName) throw new Error('smsGateway=aws needs -c awsSmsConfigurationSet=NAME');
const originationIdentity = context(app, 'awsSmsOriginationIdentity');
const { indexes: tableIndexes } = tableIndexesFromContext(app);

new ServiceStack(app, 'Shortsms', {
  description: 'shortsms: short links and SMS',
  projectRoot: fileURLToPath(new URL('..', import.meta.url)),
  ...(shortDomain && certificateArn && { shortDomain: { name: shortDomain, certificateArn } }),
  ...(context(app, 'alarmEmail') && { alarmEmail: context(app, 'alarmEmail') }),
  ...(kannel && { kannel }),
  ...(smsGateway === 'aws' && configurationSetName && { awsSms: { configurationSetName, ...(originationIdentity && { originationIdentity }) } }),
  ...apiLimitsFromContext(app),
  ...(tableIndexes !== undefined && { tableIndexes }),
});

// cdk-nag's AwsSolutions pack on every synth: a finding not acknowledged (lib/nag.ts) fails it.
Validations.of(app).addPlugins(new AwsSolutionsChecks(app));

function required(key: string): string {
  const value = context(app, key);
  if (!value) throw new Error(`smsGateway=kannel needs -c ${key}=…`);
  return value;
}

function context(app: App, key: string): string | undefined {
  const value: unknown = app.node.tryGetContext(key);
  if (value === undefined || value === '') return undefined;
  if (typeof value !== 'string') throw new Error(`Context ${key} must be a string`);
  return value;
}
