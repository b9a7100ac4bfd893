import type { APIGatewayProxyEventV2, Context } from 'aws-lambda';
import { unknownOperationHandler } from '../shared/api/handler';
import { resolveOperation } from '../shared/api/routes';

/** Catch-all route: a path that names no operation answers code 4 or 5 in the envelope. */
export const handler = (event: APIGatewayProxyEventV2, context: Context) => {
  const resolution = resolveOperation(event.rawPath);
  const kind = resolution.kind === 'unknownModule' ? 'unknownModule' : 'unknownMethod';
  const name = resolution.kind === 'operation' ? event.rawPath : resolution.name;
  return unknownOperationHandler(kind, name)(event, context);
};
