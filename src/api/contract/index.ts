export * from './errors';
export * from './keys';
export * from './limits';
export * from './requests';
export * from './resources';
export * from './responses';
export * from './money';
