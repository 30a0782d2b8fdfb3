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
  return connectAll([pub, sub], onError) as Promise<[RedisClient, RedisClient]>;
}

/** One connection, with the same time limit and error reporting. */
export async function connectRedis(url: string, onError: (err: Error) => void): Promise<RedisClient> {
  const [client] = await connectAll([createClient({ url })], onError);
  return client as RedisClient;
}

async function connectAll(clients: RedisClient[], onError: (err: Error) => void): Promise<RedisClient[]> {
  for (const client of clients) {
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
    await Promise.race([Promise.all(clients.map((c) => c.connect())), timeout]);
    return clients;
  } catch (err) {
    for (const client of clients) client.destroy();
    throw err;
  } finally {
    clearTimeout(timer);
  }
}
