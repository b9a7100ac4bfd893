import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { redirect } from '../shared/api/redirect';
import { runtime } from '../shared/runtime';

const deps = runtime();

export const handler = (event: APIGatewayProxyEventV2) =>
  redirect(event, { links: deps.links, queues: deps.queues, clock: () => deps.clock() });
