import { AuditLog } from '../domain/audit';
import { OperatorService } from '../domain/operators';
import type { Clock } from '../domain/time';
import { cryptoRandomInt, ulidAt } from '../ids';
import type { Store } from '../store/client';
import { AuditRepository, OperatorTokensRepository } from '../store/operators-repo';

/** The operator API's own services: its tokens and its audit log, on a runtime's store and clock. */
export interface AdminServices {
  operators: OperatorService;
  audit: AuditLog;
}

const built = new WeakMap<object, AdminServices>();

/** Built once per runtime (the CLI's, a function's, the local server's). */
export function adminServices(rt: { store: Store; clock: Clock }): AdminServices {
  let services = built.get(rt);
  if (!services) {
    const clock: Clock = () => rt.clock();
    services = {
      operators: new OperatorService({ tokens: new OperatorTokensRepository(rt.store), tokenIds: ulidAt, random: cryptoRandomInt, clock }),
      audit: new AuditLog({ store: new AuditRepository(rt.store), ids: ulidAt, clock }),
    };
    built.set(rt, services);
  }
  return services;
}
