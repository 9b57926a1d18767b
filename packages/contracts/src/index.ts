export * from './auth';
export * from './common';
export * from './config';
export * from './patients';
export * from './route';
export * from './tenancy';
export * from './user';
