export * from './auth';
export * from './common';
export * from './config';
export * from './patients';
export * from './tenancy';
export * from './user';
