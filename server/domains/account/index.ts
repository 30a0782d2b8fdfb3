/** The public surface of this module: other code imports it only through this file. */

export * from './area-codes';
export * from './calls';
export * from './code-sender';
export * from './codes';
export * from './contact';
export { accountDomain } from './domain';
export * from './fund-password';
export * from './invite';
export * from './limits';
export { verifyLoginPassword } from './login';
export * from './migrations/0001_accounts';
export * from './migrations/0030_session_devices';
export * from './ops';
export * from './passwords';
export { insertUser, type NewUser } from './registration';
export * from './services';
export { type AccountTables, withAccount } from './tables';
export * from './users';
