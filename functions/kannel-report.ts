import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { runtime } from '../shared/runtime';
import { secretReader } from '../shared/secrets';
import { kannelReport } from '../shared/sms/kannel-report';

const rt = runtime();
const kannel = rt.config.kannel;
const deps = {
  dispatcher: rt.dispatcher,
  secret: kannel ? secretReader(kannel.reportSecret, kannel.region) : undefined,
  clock: () => rt.clock(),
};

/** Kannel's delivery reports (dlr-url), GET /dlr/kannel. */
export const handler = (event: APIGatewayProxyEventV2) => kannelReport(event, deps);
