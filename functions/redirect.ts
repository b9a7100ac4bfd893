import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { redirect } from '../shared/api/redirect';
import { runtime } from '../shared/runtime';

const rt = runtime();
const deps = { links: rt.links, queues: rt.queues, clock: () => rt.clock() };

export const handler = (event: APIGatewayProxyEventV2) => redirect(event, deps);
