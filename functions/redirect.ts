import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { redirect } from '../shared/api/redirect';
import { redirectDeps } from '../shared/redirect-runtime';

const deps = redirectDeps();

export const handler = (event: APIGatewayProxyEventV2) => redirect(event, deps);
