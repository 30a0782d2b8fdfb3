/** The public surface of this module: other code imports it only through this file. */

export * from './area-codes';
export * from './calls';
export * from './code-sender';
export * from './codes';
export * from './contact';
export { announceNewDevice, isNewDevice } from './devices';
export { accountDomain } from './domain';
export * from './fund-password';
export * from './invite';
export * from './limits';
export { verifyLoginPassword } from './login';
export { type Mailer, OutboxMailer } from './mail';
export * from './migrations/0001_accounts';
export * from './migrations/0030_session_devices';
export * from './migrations/0031_account_mail';
export * from './ops';
export * from './passwords';
export { insertUser, type NewUser } from './registration';
export * from './services';
export { type AccountTables, withAccount } from './tables';
export * from './users';
