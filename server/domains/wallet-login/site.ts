import { BusinessError } from '../../platform/errors';

/** The site a wallet message names: EIP-4361's domain (host[:port]) and URI (the origin). */
export interface WalletSite {
  domain: string;
  uri: string;
}

const LOOPBACK = /^(localhost|127(\.\d{1,3}){3})$/;

/** An origin as the URL parser spells it (lower-case host, no default port), or null when it is none. */
function originOf(text: string): URL | null {
  try {
    const url = new URL(text);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url : null;
  } catch {
    return null;
  }
}

/**
 * Which site a request may get a wallet message for. The Host header alone proves nothing (anyone can send any), so
 * it must be one of the operator's public origins (PUBLIC_ORIGIN); without that setting only loopback hosts are
 * served, so a development install works and a public one refuses until it is configured. A message names the site
 * the user's wallet shows them, and login later accepts it only for the same site.
 */
export function walletSiteOf(
  request: { scheme: string; host: string } | undefined,
  publicOrigins: readonly string[],
): WalletSite {
  const url = request ? originOf(`${request.scheme}://${request.host}`) : null;
  const allowed =
    url !== null &&
    (publicOrigins.length > 0
      ? publicOrigins.some((o) => originOf(o)?.origin === url.origin)
      : LOOPBACK.test(url.hostname));
  if (!url || !allowed) throw new BusinessError('walletSiteRefused');
  return { domain: url.host, uri: url.origin };
}
