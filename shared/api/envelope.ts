import type { APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import type { ResultCode } from './result-codes';
import { toXml } from './xml';

export type OutputFormat = 'json' | 'xml';

export interface Envelope {
  code: ResultCode;
  data: unknown;
  message: string;
}

/** Every API answer: HTTP 200 with the `{code, data, message}` envelope (SPEC §2). */
export function envelopeResponse(envelope: Envelope, output: OutputFormat = 'json'): APIGatewayProxyStructuredResultV2 {
  const body = { code: envelope.code, data: envelope.data ?? null, message: envelope.message };
  return {
    statusCode: 200,
    headers: {
      'content-type': output === 'xml' ? 'application/xml; charset=utf-8' : 'application/json; charset=utf-8',
      'cache-control': 'no-store',
    },
    body: output === 'xml' ? toXml(body) : JSON.stringify(body),
  };
}
