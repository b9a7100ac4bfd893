import { adminOperation, NO_INPUT } from './operation';

export const operatorsWhoami = adminOperation({
  path: 'operators/whoami',
  input: NO_INPUT,
  run: async (_input, _deps: unknown, operator) => operator,
});
