import { join } from 'node:path';
import { Arn, ArnFormat, Fn, Token } from 'aws-cdk-lib';
import type { IHttpApi } from 'aws-cdk-lib/aws-apigatewayv2';
import { Certificate } from 'aws-cdk-lib/aws-certificatemanager';
import {
  AllowedMethods,
  CachePolicy,
  Function as CloudFrontFunction,
  Distribution,
  FunctionCode,
  FunctionEventType,
  FunctionRuntime,
  HttpVersion,
  OriginProtocolPolicy,
  OriginRequestPolicy,
  SecurityPolicyProtocol,
  ViewerProtocolPolicy,
} from 'aws-cdk-lib/aws-cloudfront';
import { FunctionUrlOrigin, HttpOrigin } from 'aws-cdk-lib/aws-cloudfront-origins';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { FunctionUrlAuthType } from 'aws-cdk-lib/aws-lambda';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { ServiceFunction } from './service-function';

export interface ShortDomain {
  /** Host name only, e.g. `go.example.com`. */
  readonly name: string;
  /** An ACM certificate for `name`, in us-east-1 as CloudFront requires. */
  readonly certificateArn: string;
}

export interface RedirectProps {
  readonly projectRoot: string;
  readonly table: ITable;
  /** Serve short links on this domain instead of the distribution's own. */
  readonly shortDomain?: ShortDomain;
  /** Where each click is reported. */
  readonly clickQueue: IQueue;
}

/**
 * `GET|HEAD {short_link_base}/<code>`: CloudFront in front of the redirect function's
 * URL. The URL only accepts requests CloudFront signs (origin access control).
 */
export class Redirect extends Construct {
  readonly function: ServiceFunction;
  readonly distribution: Distribution;
  /** `{short_link_base}`: `https://<shortDomain>`, else the distribution's own domain. */
  readonly shortLinkBase: string;
  readonly #projectRoot: string;

  constructor(scope: Construct, id: string, props: RedirectProps) {
    super(scope, id);
    this.#projectRoot = props.projectRoot;
    const { shortDomain } = props;
    if (shortDomain) assertShortDomain(shortDomain);

    this.function = new ServiceFunction(this, 'Redirect', {
      projectRoot: props.projectRoot,
      table: props.table,
      handler: 'redirect',
      tableAccess: 'read',
      // The redirect never builds short links, and the distribution's domain would make a
      // cycle here (function → URL → distribution → function), so it gets no base.
      shortLinkBase: undefined,
      environment: { CLICK_QUEUE_URL: props.clickQueue.queueUrl },
    });
    props.clickQueue.grantSendMessages(this.function.function);
    const url = this.function.function.addFunctionUrl({ authType: FunctionUrlAuthType.AWS_IAM });

    this.distribution = new Distribution(this, 'Distribution', {
      comment: 'shortsms short links',
      defaultBehavior: {
        origin: FunctionUrlOrigin.withOriginAccessControl(url),
        allowedMethods: AllowedMethods.ALLOW_GET_HEAD,
        viewerProtocolPolicy: ViewerProtocolPolicy.REDIRECT_TO_HTTPS,
        // Every click must reach the function (click counts, status changes at once),
        // and its answers say no-store anyway.
        cachePolicy: CachePolicy.CACHING_DISABLED,
      },
      httpVersion: HttpVersion.HTTP2_AND_3,
      ...(shortDomain && {
        domainNames: [shortDomain.name],
        certificate: Certificate.fromCertificateArn(this, 'Certificate', shortDomain.certificateArn),
        minimumProtocolVersion: SecurityPolicyProtocol.TLS_V1_2_2021,
      }),
    });
    this.shortLinkBase = shortDomain ? `https://${shortDomain.name}` : `https://${this.distribution.distributionDomainName}`;
  }

  /**
   * Serves the API on the short domain too, `{short_link_base}/service/<Module>/<Method>`,
   * where module and method match in any letter case: a CloudFront Function lowercases
   * them on the way to the HTTP API, whose routes are case-sensitive. The operator API,
   * `/admin/...`, goes to the same HTTP API as it is. Nothing is cached.
   */
  serveApi(httpApi: IHttpApi): void {
    const lowercase = new CloudFrontFunction(this, 'LowercaseOperation', {
      comment: 'Lowercases /service/<Module>/<Method> for the HTTP API routes',
      code: FunctionCode.fromFile({ filePath: join(this.#projectRoot, 'lib', 'lowercase-operation.js') }),
      runtime: FunctionRuntime.JS_2_0,
    });
    // apiEndpoint is https://<id>.execute-api.<region>.amazonaws.com: the origin is its host.
    const apiHost = Fn.select(2, Fn.split('/', httpApi.apiEndpoint));
    const api = new HttpOrigin(apiHost, { protocolPolicy: OriginProtocolPolicy.HTTPS_ONLY });
    const uncached = {
      allowedMethods: AllowedMethods.ALLOW_ALL,
      viewerProtocolPolicy: ViewerProtocolPolicy.HTTPS_ONLY,
      cachePolicy: CachePolicy.CACHING_DISABLED,
      // With caching disabled, this policy forwards the Authorization header as well (an
      // origin request policy may not name it): the operator API's bearer token.
      originRequestPolicy: OriginRequestPolicy.ALL_VIEWER_EXCEPT_HOST_HEADER,
    };
    this.distribution.addBehavior('/service/*', api, {
      ...uncached,
      functionAssociations: [{ function: lowercase, eventType: FunctionEventType.VIEWER_REQUEST }],
    });
    this.distribution.addBehavior('/admin/*', api, uncached);
  }
}

/** Fails synth, not a deploy half an hour in, on a value CloudFront would refuse. */
function assertShortDomain({ name, certificateArn }: ShortDomain): void {
  if (!/^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/i.test(name)) {
    throw new Error(`shortDomain must be a host name such as go.example.com, not ${JSON.stringify(name)}`);
  }
  if (Token.isUnresolved(certificateArn)) return;
  const arn = Arn.split(certificateArn, ArnFormat.SLASH_RESOURCE_NAME);
  if (arn.service !== 'acm' || arn.resource !== 'certificate') {
    throw new Error(`shortDomainCertificateArn is not an ACM certificate ARN: ${certificateArn}`);
  }
  if (arn.region !== 'us-east-1') {
    throw new Error(`CloudFront only uses ACM certificates from us-east-1; ${certificateArn} is in ${arn.region}`);
  }
}
