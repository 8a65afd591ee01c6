import { describe, expect, it } from 'vitest';
import { authorizeProject } from './authenticator.ts';
import { describeScope, forOperation, highestLevel, levelOn, parseScopeArgs } from './key-scope.ts';

describe('key scopes', () => {
  it('reads --scope values in any order: one level for all, levels for named entities, admin by default', () => {
    expect(parseScopeArgs([])).toEqual({ scope: 'admin' });
    expect(parseScopeArgs(['read'])).toEqual({ scope: 'read' });
    expect(parseScopeArgs(['lab=write', 'read', 'acme=admin'])).toEqual({ scope: 'read', entityScopes: { lab: 'write', acme: 'admin' } });
    expect(parseScopeArgs(['acme=read'])).toEqual({ scope: 'admin', entityScopes: { acme: 'read' } });
    // Repeating the same thing is not a contradiction.
    expect(parseScopeArgs(['read', 'read', 'lab=write', 'lab=write'])).toEqual({ scope: 'read', entityScopes: { lab: 'write' } });
  });

  it('refuses what it cannot read, and contradictions, rather than letting the last one win', () => {
    expect(() => parseScopeArgs(['owner'])).toThrow('--scope owner: expected read, write, admin or <entity>=<level>');
    expect(() => parseScopeArgs(['lab=owner'])).toThrow('--scope lab=owner: expected');
    expect(() => parseScopeArgs(['=read'])).toThrow('--scope =read: expected');
    expect(() => parseScopeArgs(['a b=read'])).toThrow('expected');
    expect(() => parseScopeArgs(['*=read'])).toThrow('expected');
    expect(() => parseScopeArgs(['read', 'write'])).toThrow('--scope given twice without an entity (read, write)');
    expect(() => parseScopeArgs(['lab=read', 'lab=write'])).toThrow('--scope gives entity "lab" two levels (read, write)');
  });

  it('describes, ranks and looks up a scope', () => {
    const key = { scope: 'read', entityScopes: { zeta: 'admin', lab: 'write' } } as const;
    expect(describeScope(key)).toBe('read; lab=write, zeta=admin');
    expect(describeScope({ scope: 'write' })).toBe('write');
    expect(highestLevel(key)).toBe('admin');
    expect(highestLevel({ scope: 'write', entityScopes: { lab: 'read' } })).toBe('write');
    expect([levelOn(key, 'lab'), levelOn(key, 'other')]).toEqual(['write', 'read']);
  });

  it("checks an operation's need on the entity it touches, only for keys with levels per entity", () => {
    const base = { username: 'rev', entities: ['acme', 'lab'], keyId: 'k', scope: 'read' as const };
    const mixed = { ...base, entityScopes: { lab: 'write' as const } };
    const op = { name: 'objCreate (POST /obj/create)', access: 'write' as const };
    expect(authorizeProject(forOperation(mixed, op), 'lab/p')).toEqual({ ok: true });
    expect(authorizeProject(forOperation(mixed, op), 'acme/p')).toEqual({
      ok: false,
      status: 403,
      reason: 'This API key has read scope on entity "acme"; objCreate (POST /obj/create) needs write',
    });
    // Tenancy first: an entity the user lacks is refused as such, whatever the scope.
    expect(authorizeProject(forOperation(mixed, op), 'globex/p')).toMatchObject({ reason: 'User "rev" may not access entity "globex"' });
    // One level everywhere: checked whole before the body is read, so the principal is passed as is.
    expect(forOperation(base, op)).toBe(base);
    // A read needs no more than read anywhere.
    expect(authorizeProject(forOperation(mixed, { ...op, access: 'read' }), 'acme/p')).toEqual({ ok: true });
  });
});
