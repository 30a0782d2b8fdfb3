/**
 * Whether the operator is at the console. The support screens poll for new messages; a poll renews the console
 * session, so polls stop once nobody has touched the console for a while and its idle timeout (30 minutes) can end
 * an unattended session.
 */
const IDLE_MS = 25 * 60_000;
let lastActivity = Date.now();

for (const event of ['pointerdown', 'keydown', 'wheel', 'touchstart'] as const) {
  window.addEventListener(
    event,
    () => {
      lastActivity = Date.now();
    },
    { passive: true, capture: true },
  );
}

export const operatorActive = (): boolean => Date.now() - lastActivity < IDLE_MS;
