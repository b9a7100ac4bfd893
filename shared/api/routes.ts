/**
 * The API's operations in their published spelling: module → method → the handler module
 * in functions/. Paths match case-insensitively (SPEC §1). The local runtime routes by
 * this table and the CDK stack makes one route and one function per entry.
 */
export const OPERATIONS = {
  Link: {
    Create: 'link-create',
    Delete: 'link-delete',
    Get: 'link-get',
    GetLinks: 'link-get-links',
    GetStats: 'link-get-stats',
    List: 'link-list',
    Update: 'link-update',
  },
  Message: {
    GetSMSStatus: 'message-get-sms-status',
    List: 'message-list',
    SendSmsMessage: 'message-send-sms-message',
  },
} as const satisfies Record<string, Record<string, string>>;

type Operations = typeof OPERATIONS;
/** The handler module of every operation, e.g. `link-create`. */
export type OperationHandler = { [M in keyof Operations]: Operations[M][keyof Operations[M]] }[keyof Operations];

export type Resolution =
  | { kind: 'operation'; handler: OperationHandler }
  | { kind: 'unknownModule'; name: string }
  | { kind: 'unknownMethod'; name: string };

/** Every operation with its published module and method names and its handler. */
export function allOperations(): { module: string; method: string; handler: OperationHandler }[] {
  return Object.entries(OPERATIONS).flatMap(([module, methods]) =>
    Object.entries(methods as Record<string, OperationHandler>).map(([method, handler]) => ({ module, method, handler })),
  );
}

/** module (lowercase) → method (lowercase) → handler; a Map, so no inherited names resolve. */
const BY_LOWERCASE = new Map(
  Object.entries(OPERATIONS).map(([module, methods]) => [
    module.toLowerCase(),
    new Map(Object.entries(methods as Record<string, OperationHandler>).map(([method, handler]) => [method.toLowerCase(), handler])),
  ]),
);

/** Resolves `/service/<Module>/<Method>` (or any path below /service) to its handler. */
export function resolveOperation(path: string): Resolution {
  const [module = '', method = '', ...rest] = path.replace(/^\/service\/?/i, '').split('/');
  const methods = BY_LOWERCASE.get(module.toLowerCase());
  if (!methods) return { kind: 'unknownModule', name: module };
  const handler = methods.get(method.toLowerCase());
  if (!handler || rest.some((segment) => segment !== '')) return { kind: 'unknownMethod', name: `${module}/${method}` };
  return { kind: 'operation', handler };
}
