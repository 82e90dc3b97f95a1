// zod.ts first: it configures zod before any schema below is created.
import './zod';
export * from './errors';
export * from './ids';
export * from './issue-path';
export * from './keys';
export * from './limits';
export * from './local-demo';
export * from './requests';
export * from './resources';
export * from './responses';
export * from './money';
export * from './payload-depth';
