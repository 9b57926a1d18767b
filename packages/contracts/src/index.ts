export * from './auth';
export * from './common';
export * from './config';
export * from './patient-record';
export * from './patients';
export * from './route';
export * from './tenancy';
export * from './user';
