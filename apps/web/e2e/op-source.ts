// An op's source code (issue 33, objects): an op saved as the Python SDK saves it (its code a file,
// the op object naming the file's digest) shows its code, highlighted, on the op's page.
import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import type { TestServer } from '@weft/server/test/test-server.ts';

const SOURCE = `import weave

@weave.op
def classify(text: str) -> str:
    # Short answers are greetings.
    return "greeting" if len(text) < 12 else "question"
`;

export async function checkOpSource(page: Page, server: TestServer, projectId: string): Promise<void> {
  const client = server.client('alice');
  const file = await client.fileCreate({ project_id: projectId, file: SOURCE, filename: 'obj.py' });
  await client.POST('/obj/create', {
    body: {
      obj: {
        project_id: projectId,
        object_id: 'classify',
        val: { _type: 'CustomWeaveType', weave_type: { type: 'Op' }, files: { 'obj.py': file.digest } } as never,
      },
    },
  });
  await page.goto(`${server.url}/${projectId}/objects/classify`);
  const code = page.getByLabel('Source of obj.py');
  await code.waitFor();
  // The code whole, as written; its keywords, strings and comment marked for colour.
  expect(await code.innerText()).toBe(SOURCE);
  expect(await code.locator('.hljs-keyword').allInnerTexts()).toEqual(expect.arrayContaining(['import', 'def', 'return', 'if', 'else']));
  expect(await code.locator('.hljs-string').allInnerTexts()).toEqual(['"greeting"', '"question"']);
  expect(await code.locator('.hljs-comment').innerText()).toBe('# Short answers are greetings.');
}
