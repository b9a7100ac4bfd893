// TypeScript and the ESM-only middy packages are compiled to CommonJS by swc, so jest
// runs without --experimental-vm-modules and mocks work the ordinary way.
export default {
  testEnvironment: 'node',
  roots: ['<rootDir>/test'],
  testMatch: ['**/*.test.ts'],
  transform: {
    '^.+\\.(t|j)sx?$': ['@swc/jest', { jsc: { target: 'es2022' }, module: { type: 'commonjs' } }],
  },
  transformIgnorePatterns: ['/node_modules/(?!(@middy|@apidevtools)/)'],
  testTimeout: 30000,
};
