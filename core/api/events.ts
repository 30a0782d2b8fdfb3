/**
 * What the API client tells the app (DESIGN "The data flow, one way"): core/ knows no router, store or toast, so it
 * emits these and the shell (src/app/api-wiring.ts) acts on them. Listeners run synchronously, in the order they
 * were added, before the call that caused the event resolves.
 */
export interface ApiEventMap {
  /** Type 999 (SPEC 4, 7): the session is gone. The shell clears it, toasts `message` and goes to login. */
  notLoggedIn: { message: string };
  /** A failure the user should be told about (SPEC 7: toasted as an error). */
  failed: { message: string };
  /** An ok answer that carries a message other than OK, meant for the user (toasted as information). */
  notice: { message: string };
  /** A call that shows the global loading indicator started; exactly one `loadingEnd` follows. */
  loadingBegin: { path: string };
  loadingEnd: { path: string };
}

export type ApiEventName = keyof ApiEventMap;
export type ApiListener<K extends ApiEventName> = (event: ApiEventMap[K]) => void;

/** A tiny typed emitter; `on` returns the function that removes the listener. */
export interface Emitter<M> {
  on<K extends keyof M>(name: K, listener: (event: M[K]) => void): () => void;
  emit<K extends keyof M>(name: K, event: M[K]): void;
  /** How many listeners an event has (tests, diagnostics). */
  listenerCount(name: keyof M): number;
}

export function createEmitter<M>(): Emitter<M> {
  const listeners = new Map<keyof M, Set<(event: never) => void>>();
  return {
    on(name, listener) {
      let set = listeners.get(name);
      if (!set) {
        set = new Set();
        listeners.set(name, set);
      }
      const entry = listener as (event: never) => void;
      set.add(entry);
      return () => {
        listeners.get(name)?.delete(entry);
      };
    },
    emit(name, event) {
      const set = listeners.get(name);
      if (!set) return;
      // A copy: a listener may remove itself (or another) while the event is delivered.
      for (const listener of [...set]) (listener as (e: typeof event) => void)(event);
    },
    listenerCount: (name) => listeners.get(name)?.size ?? 0,
  };
}

/** The API client's events for the whole tab. */
export const apiEvents: Emitter<ApiEventMap> = createEmitter<ApiEventMap>();
