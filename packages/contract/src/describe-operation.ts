// The tests of one operation, generated from what the spec says about it (security, documented
// statuses, whether it takes a body) and from its cases. Every answer is also checked against
// the spec by the suite's afterEach, so these tests assert the status and what the spec cannot say.
import { expect, test } from 'vitest';
import type { components, ValidationError } from '@weft/types';
import type { OperationCase } from './cases/case-types.ts';
import type { AuthScheme, SpecOperation } from '@weft/types/spec';
import { expectStatus, type SuiteContext } from './suite-context.ts';

type OpenAIError = components['schemas']['OpenAIError'];

const OTHER_SCHEME: Record<AuthScheme, AuthScheme> = { basic: 'bearer', bearer: 'basic' };
const SCHEME_NAME: Record<AuthScheme, string> = { basic: 'Basic', bearer: 'Bearer' };

/** Whether the operation documents a success at all (one that never succeeds declares `refused`). */
export const succeeds = (op: Pick<SpecOperation, 'responses'>): boolean => Object.keys(op.responses).some((code) => code.startsWith('2'));

export function defineOperationTests(op: SpecOperation, cases: OperationCase, s: SuiteContext): void {
  const server = s.target.kind === 'server';

  if (succeeds(op)) {
    test('answers 2xx with a body matching the spec', async () => {
      await (cases.valid ?? cases.request)(s.clientFor(op), s.context());
      // The case may call other operations first; the last call must be this one.
      const last = s.recorder.last();
      expect(last && s.checker().check(last).operation?.operationId, 'the last call of the case').toBe(op.operationId);
    });
  } else {
    const refused = cases.refused;
    test(`answers ${refused?.status ?? 'what its case declares'}: ${refused?.why ?? 'it documents no 2xx'}`, async () => {
      if (!refused) expect.fail(`${op.operationId} documents no 2xx: declare the status it answers in its case (refused)`);
      expect(Object.keys(op.responses)).toContain(String(refused.status));
      await expectStatus(cases.request(s.clientFor(op), s.context()), refused.status);
    });
  }

  for (const bad of cases.invalid) {
    if (op.errorShape === 'openai') {
      // OpenAI's clients read a broken request as a 400 `invalid_request_error` naming the field.
      test(`answers 400 in OpenAI's shape to ${bad.name}`, async () => {
        const error = await expectStatus(bad.send(s.clientFor(op), s.context()), 400);
        expect(s.validator.schemaProblems('OpenAIError', error.body)).toEqual([]);
        if (!('param' in bad)) expect.fail(`${op.operationId} has OpenAI's errors: its invalid requests name \`param\`, not \`loc\``);
        if (server) expect((error.body as unknown as OpenAIError).error).toMatchObject({ type: 'invalid_request_error', param: bad.param });
      });
      continue;
    }
    test(`answers 422 to ${bad.name}`, async () => {
      const error = await expectStatus(bad.send(s.clientFor(op), s.context()), 422);
      expect(s.validator.schemaProblems('ValidationError', error.body)).toEqual([]);
      if (!('loc' in bad)) expect.fail(`${op.operationId} has the seed's errors: its invalid requests name \`loc\`, not \`param\``);
      // Prism answers the spec's example whatever was wrong; the server must name the field.
      if (server) expect((error.body as ValidationError).detail.map((d) => d.loc)).toContainEqual(bad.loc);
    });
  }

  if (op.hasRequestBody) {
    test('answers 415 to a body of a media type it does not take', async () => {
      const extra = { headers: { 'Content-Type': 'text/plain' }, bodySerializer: () => 'this is not JSON' };
      await expectStatus(cases.request(s.clientFor(op), s.context(), extra), 415);
    });
  }

  const scheme = op.schemes[0];
  if (scheme === undefined) {
    test('needs no credentials, and ignores credentials sent anyway', async () => {
      // An operation refused by design answers its status either way.
      const answer = (call: Promise<unknown>) => (cases.refused ? expectStatus(call, cases.refused.status) : call);
      await answer(cases.request(s.client('none'), s.context()));
      // Weave SDKs send their key everywhere; a wrong one must not matter here.
      await answer(cases.request(s.client({ scheme: 'basic', key: server ? 'wrong' : 'valid' }), s.context()));
    });
  } else {
    const expectChallenge = (error: { response: Response }) => {
      // Prism answers the spec's example header (always Basic); the server names the scheme.
      if (server) expect(error.response.headers.get('WWW-Authenticate') ?? '').toMatch(new RegExp(`^${SCHEME_NAME[scheme]}\\b`, 'i'));
    };
    // Behind `prism proxy`, Prism answers these two itself; the direct runs check the server.
    const proxied = s.target.behindPrismProxy === true;
    if (!proxied)
      test('answers 401 without credentials', async () => {
        expectChallenge(await expectStatus(cases.request(s.client('none'), s.context()), 401));
      });
    const wrong = OTHER_SCHEME[scheme];
    if (!proxied && !op.schemes.includes(wrong)) {
      test(`answers 401 to ${SCHEME_NAME[wrong]} credentials (it takes ${SCHEME_NAME[scheme]})`, async () => {
        expectChallenge(await expectStatus(cases.request(s.client({ scheme: wrong, key: 'valid' }), s.context()), 401));
      });
    }
    if (server) {
      test('answers 401 to a wrong API key', async () => {
        expectChallenge(await expectStatus(cases.request(s.client({ scheme, key: 'wrong' }), s.context()), 401));
      });
    }
  }

  if (server && (cases.tenancy === 'project' || cases.tenancy === 'entity')) {
    test('answers 403 for a project of another entity', async () => {
      const other = s.target.otherEntityProject;
      if (!other) expect.fail('a server target must set otherEntityProject');
      await expectStatus(cases.request(s.clientFor(op), s.context(other)), 403);
    });
  }

  if (server && '404' in op.responses) {
    test('answers 404 for an unknown id', async () => {
      await expectStatus(cases.request(s.clientFor(op), s.context()), 404);
    });
  }
}
