import { describe, expect, it } from 'vitest';
import { projectPath } from './project-path.ts';

describe('projectPath', () => {
  it('keeps the section of a project page, and lists where a page holds one item', () => {
    expect(projectPath('/acme/bot/overview', 'lab/x', true)).toBe('/lab/x/overview');
    expect(projectPath('/acme/bot/r/call/0193', 'lab/x', true)).toBe('/lab/x/traces');
    expect(projectPath('/acme/bot/threads/t-1', 'lab/x', true)).toBe('/lab/x/threads');
    expect(projectPath('/acme/bot/tables/abc', 'lab/x', true)).toBe('/lab/x/objects');
    expect(projectPath('/acme/bot/queues/q/review', 'lab/x', true)).toBe('/lab/x/queues');
  });
  it("opens the project's traces from a page of no project", () => {
    expect(projectPath('/router-models', 'lab/x', false)).toBe('/lab/x/traces');
    expect(projectPath('/playground', 'lab/x', false)).toBe('/lab/x/traces');
    expect(projectPath('/', 'lab/x', false)).toBe('/lab/x/traces');
  });
});
