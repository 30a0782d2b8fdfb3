import { createClient } from 'redis';

export type RedisClient = ReturnType<typeof createClient>;

const CONNECT_TIMEOUT_MS = 10_000;

/**
 * The publish and subscribe connections the socket.io Redis adapter needs. The client retries forever on
 * its own, so a wrong REDIS_URL would hang the start silently: give up after 10 s with a clear error.
 * Connection errors are reported once per distinct error, not on every retry. Used by the socket.io adapter and by
 * the shared market feed.
 */
export async function connectRedisPair(
  url: string,
  onError: (err: Error) => void,
): Promise<[RedisClient, RedisClient]> {
  const pub = createClient({ url });
  const sub = pub.duplicate();
  for (const client of [pub, sub]) {
    let last = '';
    client.on('error', (err: Error) => {
      if (err.message === last) return;
      last = err.message;
      onError(err);
    });
    client.on('ready', () => {
      last = '';
    });
  }
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`REDIS_URL: no connection within ${CONNECT_TIMEOUT_MS / 1000} s`)),
      CONNECT_TIMEOUT_MS,
    );
  });
  try {
    await Promise.race([Promise.all([pub.connect(), sub.connect()]), timeout]);
    return [pub, sub];
  } catch (err) {
    pub.destroy();
    sub.destroy();
    throw err;
  } finally {
    clearTimeout(timer);
  }
}
