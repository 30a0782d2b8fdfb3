export * from './account';
export * from './calls';
export * from './envelope';
export * from './fields';
export * from './identity';
export * from './lang';
export * from './market';
