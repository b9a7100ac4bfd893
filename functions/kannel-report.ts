import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { kannelReport } from '../shared/api/kannel-report';
import { runtime } from '../shared/runtime';

const rt = runtime();
const deps = { dispatcher: rt.dispatcher, secret: rt.config.kannel?.reportSecret, clock: () => rt.clock() };

/** Kannel's delivery reports (dlr-url), GET /dlr/kannel. */
export const handler = (event: APIGatewayProxyEventV2) => kannelReport(event, deps);
