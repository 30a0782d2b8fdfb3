const LOOPBACK = /^(localhost|127(\.\d{1,3}){3})$/;

/** An origin as the URL parser spells it (lower-case host, no default port), or null when it is none. */
export function originOf(text: string): URL | null {
  try {
    const url = new URL(text);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url : null;
  } catch {
    return null;
  }
}

/**
 * The site a request came to, when it is one the platform may name to a user (in a signed message, in an e-mail's
 * link); else null. The Host header alone proves nothing (anyone can send any), so it must be one of the operator's
 * public origins (PUBLIC_ORIGIN); without that setting only loopback hosts count, so a development install works and
 * a public one names no site until it is configured.
 */
export function trustedOrigin(
  request: { scheme: string; host: string } | undefined,
  publicOrigins: readonly string[],
): URL | null {
  const url = request ? originOf(`${request.scheme}://${request.host}`) : null;
  if (!url) return null;
  const allowed =
    publicOrigins.length > 0
      ? publicOrigins.some((o) => originOf(o)?.origin === url.origin)
      : LOOPBACK.test(url.hostname);
  return allowed ? url : null;
}
