// The API key of this tab. Kept in sessionStorage: it survives a reload but not the tab, is never
// shared with other tabs, and never goes into a URL, a log or localStorage.
import { createContext, useCallback, useContext, useMemo, useState, type ReactNode } from 'react';
import { createApi, type Api } from './api.ts';

const STORAGE_KEY = 'weft.apiKey';

interface Session {
  api: Api | undefined;
  /** Why the last key was dropped (a 401), shown on the sign-in screen. */
  notice: string | undefined;
  signIn: (key: string) => void;
  signOut: (notice?: string) => void;
}

const SessionContext = createContext<Session | undefined>(undefined);

export function SessionProvider({ children }: { children: ReactNode }) {
  const [key, setKey] = useState(() => sessionStorage.getItem(STORAGE_KEY) ?? undefined);
  const [notice, setNotice] = useState<string>();
  const signIn = useCallback((next: string) => {
    sessionStorage.setItem(STORAGE_KEY, next);
    setNotice(undefined);
    setKey(next);
  }, []);
  const signOut = useCallback((why?: string) => {
    sessionStorage.removeItem(STORAGE_KEY);
    setNotice(why);
    setKey(undefined);
  }, []);
  const api = useMemo(() => (key === undefined ? undefined : createApi(key)), [key]);
  const session = useMemo(() => ({ api, notice, signIn, signOut }), [api, notice, signIn, signOut]);
  return <SessionContext.Provider value={session}>{children}</SessionContext.Provider>;
}

export function useSession(): Session {
  const session = useContext(SessionContext);
  if (!session) throw new Error('useSession outside SessionProvider');
  return session;
}

/** The signed-in API (pages under the sign-in gate only). */
export function useApi(): Api {
  const { api } = useSession();
  if (!api) throw new Error('useApi before sign-in');
  return api;
}

/**
 * Whether the signed-in key may only read (its scope, from /server_info) on `entity`, or, with no
 * entity, everywhere: write actions are then disabled with the reason, rather than offered and
 * refused with a 403. Unknown yet: not read-only (the server still refuses, with its reason).
 */
export function useReadOnly(entity?: string): boolean {
  const { $api } = useApi();
  const info = $api.useQuery('get', '/server_info', {}, { staleTime: Infinity });
  if (!info.data) return false;
  const { key_scope, key_entity_scopes = {} } = info.data;
  if (entity !== undefined) return (key_entity_scopes[entity] ?? key_scope) === 'read';
  return key_scope === 'read' && Object.values(key_entity_scopes).every((level) => level === 'read');
}

export const READ_ONLY_NOTE = 'This API key is read-only here: it can look, not change.';

/** The signed-in key's user (server_info's svc_user_id), as recorded on feedback it writes; undefined until read. */
export function useSignedInUser(): string | undefined {
  const { $api } = useApi();
  const info = $api.useQuery('get', '/server_info', {}, { staleTime: Infinity });
  return info.data?.svc_user_id;
}
