/**
 * The API's operations: module → method → the handler module in functions/. Paths match
 * case-insensitively (SPEC §1), so both levels are keyed in lowercase. The local runtime
 * routes by this table and the CDK stack makes one route and one function per entry.
 */
export const OPERATIONS = {
  link: {
    create: 'link-create',
    delete: 'link-delete',
    get: 'link-get',
    list: 'link-list',
    update: 'link-update',
  },
  message: {},
} as const satisfies Record<string, Record<string, string>>;

export type Resolution =
  | { kind: 'operation'; handler: string }
  | { kind: 'unknownModule'; name: string }
  | { kind: 'unknownMethod'; name: string };

/** Resolves `/service/<Module>/<Method>` (or any path below /service) to its handler. */
export function resolveOperation(path: string): Resolution {
  const [module = '', method = '', ...rest] = path.replace(/^\/service\/?/i, '').split('/');
  const methods = own(OPERATIONS, module.toLowerCase());
  if (!methods) return { kind: 'unknownModule', name: module };
  const handler = own(methods, method.toLowerCase());
  if (!handler || rest.some((segment) => segment !== '')) return { kind: 'unknownMethod', name: `${module}/${method}` };
  return { kind: 'operation', handler };
}

/** Every operation as `Module/Method` pairs with its handler, for the stack and the router. */
export function allOperations(): { module: string; method: string; handler: string }[] {
  return Object.entries(OPERATIONS).flatMap(([module, methods]) =>
    Object.entries(methods).map(([method, handler]) => ({ module, method, handler })),
  );
}

/** A table entry by name, never an inherited property such as `constructor`. */
function own<T>(table: Record<string, T>, name: string): T | undefined {
  return Object.hasOwn(table, name) ? table[name] : undefined;
}
