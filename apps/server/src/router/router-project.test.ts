import { WeftError } from '@weft/core';
import { describe, expect, it } from 'vitest';
import { createAuthenticator, type Principal } from '../auth/index.ts';
import { recordContentFor, routerProject } from './router-project.ts';

const alice: Principal = { username: 'alice', entities: ['acme', 'alice'], keyId: 'k1', scope: 'admin' };
const local: Principal = { username: 'local', entities: ['*'], keyId: 'k2', scope: 'admin' };
const auth = createAuthenticator({ users: [] });

describe('routerProject', () => {
  it("records in the OpenAI-Project header's project when the key may access it", () => {
    expect(routerProject({ 'openai-project': 'alice/support-bot' }, alice, auth)).toBe('alice/support-bot');
  });

  it("defaults to <the key's first entity>/router (a wildcard-only user: its own name)", () => {
    expect(routerProject({}, alice, auth)).toBe('acme/router');
    expect(routerProject({}, local)).toBe('local/router');
  });

  it("refuses another entity's project with 403, as every operation does", () => {
    const attempt = () => routerProject({ 'openai-project': 'globex/secrets' }, alice, auth);
    expect(attempt).toThrow(WeftError);
    expect(attempt).toThrow(expect.objectContaining({ status: 403 }) as Error);
  });
});

describe('recordContentFor', () => {
  const projects = { 'acme/private': { record_content: false }, 'acme/open': { record_content: true } };

  it('records content unless the project or the request switches it off', () => {
    expect(recordContentFor(projects, 'acme/open', {})).toBe(true);
    expect(recordContentFor(undefined, 'acme/any', {})).toBe(true);
    expect(recordContentFor(projects, 'acme/open', { 'x-weft-record-content': 'false' })).toBe(false);
    expect(recordContentFor(projects, 'acme/private', {})).toBe(false);
  });

  it('does not let a request switch on what the operator switched off', () => {
    expect(recordContentFor(projects, 'acme/private', { 'x-weft-record-content': 'true' })).toBe(false);
  });

  it('does not read inherited keys as projects', () => {
    expect(recordContentFor(projects, '__proto__', {})).toBe(true);
  });
});
