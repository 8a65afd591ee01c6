import { useState, type FormEvent } from 'react';
import { useSession } from '../session.tsx';

export function SignInPage() {
  const { signIn, notice } = useSession();
  const [key, setKey] = useState('');
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (key.trim() !== '') signIn(key.trim());
  };
  return (
    <main className="sign-in">
      <h1>Weft Studio</h1>
      <form onSubmit={submit} aria-label="Sign in">
        <label htmlFor="api-key">API key</label>
        <input
          id="api-key"
          type="password"
          autoComplete="off"
          spellCheck={false}
          value={key}
          onChange={(e) => setKey(e.target.value)}
          placeholder="the key the server printed on first start"
          autoFocus
        />
        <button type="submit">Sign in</button>
      </form>
      {notice && (
        <p role="alert" className="error">
          {notice}
        </p>
      )}
      <p className="muted">The key stays in this tab only (session storage) and is sent with each request.</p>
    </main>
  );
}
