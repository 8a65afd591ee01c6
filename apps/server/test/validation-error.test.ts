import { describe, expect, it } from 'vitest';
import { toValidationDetails } from '../src/http/validation-error.ts';

describe('toValidationDetails', () => {
  it('names where the value was as the seed does: body, path, query, header', () => {
    const details = toValidationDetails([
      { path: '/params/model_id', message: 'must NOT have more than 128 characters', errorCode: 'maxLength.openapi.validation' },
      { path: '/query/project_id', message: "must have required property 'project_id'", errorCode: 'required.openapi.validation' },
      { path: '/headers/if-none-match', message: 'must be string', errorCode: 'type.openapi.validation' },
    ]);
    expect(details).toEqual([
      { loc: ['path', 'model_id'], msg: 'must NOT have more than 128 characters', type: 'maxLength' },
      { loc: ['query', 'project_id'], msg: "must have required property 'project_id'", type: 'missing' },
      { loc: ['header', 'if-none-match'], msg: 'must be string', type: 'string_type' },
    ]);
  });

  it('names the missing property itself and keeps array positions as strings', () => {
    expect(
      toValidationDetails([
        { path: '/body/batch/0/req', message: "must have required property 'start'", errorCode: 'required.openapi.validation' },
        { path: '/body/trajectory_groups/1/trajectories/0/reward', message: 'must be number', errorCode: 'type.openapi.validation' },
      ]),
    ).toEqual([
      { loc: ['body', 'batch', '0', 'req', 'start'], msg: "must have required property 'start'", type: 'missing' },
      { loc: ['body', 'trajectory_groups', '1', 'trajectories', '0', 'reward'], msg: 'must be number', type: 'float_type' },
    ]);
  });

  it('lists each problem once', () => {
    const item = { path: '/body/limit', message: 'must be integer', errorCode: 'type.openapi.validation' };
    expect(toValidationDetails([item, item])).toHaveLength(1);
  });
});
