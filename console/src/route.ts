import { useEffect, useState } from 'preact/hooks';

/** The view's address after `#/`, split at slashes (`#/resource/c1/r1` → ['resource', 'c1', 'r1']). */
export function useRoute(): string[] {
  const read = () => location.hash.replace(/^#\/?/, '').split('/').filter(Boolean).map(decodeURIComponent);
  const [route, setRoute] = useState(read);
  useEffect(() => {
    const changed = () => setRoute(read());
    addEventListener('hashchange', changed);
    return () => removeEventListener('hashchange', changed);
  }, []);
  return route;
}

export const href = (...parts: string[]): string => `#/${parts.map(encodeURIComponent).join('/')}`;
export const navigate = (...parts: string[]): void => void (location.hash = href(...parts));
