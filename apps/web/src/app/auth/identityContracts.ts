// The identity routes' contracts, and zod with them: loaded by the first identity call (`loadIdentityContracts`),
// not with the sign-in page, which shows without any schema (ADR 048). Never import this module statically.
export { authContract, platformContract, userContract } from '@caredeck/contracts';
