import { useSearch } from '@tanstack/react-router';
import { useCallback, useEffect, useRef, useState } from 'react';

/** Seconds left on a resend countdown; `start(n)` begins a new one. */
export function useCountdown(): [number, (seconds: number) => void] {
  const [left, setLeft] = useState(0);
  const until = useRef(0);
  useEffect(() => {
    if (left <= 0) return;
    const timer = setInterval(() => {
      const rest = Math.max(0, Math.ceil((until.current - Date.now()) / 1000));
      setLeft(rest);
    }, 250);
    return () => clearInterval(timer);
  }, [left]);
  const start = useCallback((seconds: number) => {
    const s = Math.max(0, Math.ceil(seconds));
    until.current = Date.now() + s * 1000;
    setLeft(s);
  }, []);
  return [left, start];
}

/** A query parameter as a string (the router parses `?x=123` to a number); undefined when absent. */
export function useQueryParam(name: string): string | undefined {
  const search: Record<string, unknown> = useSearch({ strict: false });
  const v = search[name];
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  return undefined;
}

/** A record id from the link, as the server reads one; anything else names nothing. */
export const recordId = (raw: string | undefined): number | null =>
  raw && /^[1-9]\d{0,9}$/.test(raw) ? Number(raw) : null;
