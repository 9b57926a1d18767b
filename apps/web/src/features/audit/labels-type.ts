import type { AuditAction } from '@caredeck/contracts';

/** One language's names of the audit actions (labels.ts). */
export type AuditLabels = Record<AuditAction, string>;
