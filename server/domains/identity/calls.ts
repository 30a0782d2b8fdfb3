import type { identityCalls } from '../../../protocol/identity';
import { type CallHandlers, requireSession } from '../../platform/http/calls';
import { type IdentityServices, realNameInfo, submitAdvanced, submitBasic } from './service';

/** Identity verification: submit the basic and the advanced level, read the state of both. */
export function identityHandlers(s: IdentityServices): CallHandlers<typeof identityCalls> {
  return {
    'user/real_name': (input, ctx) => submitBasic(s, requireSession(ctx).userId, input),
    'user/real_name2': (input, ctx) => submitAdvanced(s, requireSession(ctx).userId, input),
    'user/real_name_info': (_input, ctx) => realNameInfo(s, requireSession(ctx).userId),
  };
}
