export * from './errors';
export * from './retry';
export * from './signature';
export * from './types';
export * from './client';
