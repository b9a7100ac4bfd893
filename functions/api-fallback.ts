import { unknownOperationHandler } from '../shared/api/handler';

/** Catch-all route: a path that names no operation answers code 4 or 5 in the envelope. */
export const handler = unknownOperationHandler();
