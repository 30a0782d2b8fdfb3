import { BusinessError } from '../../platform/errors';
import { trustedOrigin } from '../../platform/http/public-site';

/** The site a wallet message names: EIP-4361's domain (host[:port]) and URI (the origin). */
export interface WalletSite {
  domain: string;
  uri: string;
}

/**
 * Which site a request may get a wallet message for: one the platform may name (server/platform/http/public-site.ts),
 * else refused. A message names the site the user's wallet shows them, and login later accepts it only for the same
 * site.
 */
export function walletSiteOf(
  request: { scheme: string; host: string } | undefined,
  publicOrigins: readonly string[],
): WalletSite {
  const url = trustedOrigin(request, publicOrigins);
  if (!url) throw new BusinessError('walletSiteRefused');
  return { domain: url.host, uri: url.origin };
}
