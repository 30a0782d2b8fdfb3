import { Subject } from 'rxjs';

/** Emitted when the server says the session is gone (type 999); listeners drop per-user state. */
export const notLoggedIn$ = new Subject<{ message: string }>();
