export * from './account';
export * from './call-spec';
export * from './envelope';
export * from './fields';
export * from './identity';
export * from './lang';
export * from './market';
