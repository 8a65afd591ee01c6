// Requests as the Weave Python SDK's classic HTTP binding sends them (../shared/reference/
// weave-python-wire.md): Basic `api:<key>`; JSON bodies as bytes with NO Content-Type (httpx's
// `data=`), every model field written out, unset optionals as null; multipart uploads as httpx
// builds them. Shared by the replay tests of this folder.

type Answer = { status: number; json: () => Promise<unknown>; bytes: () => Promise<Uint8Array> };

export interface PythonSdk {
  /** A pydantic `model_dump_json()` posted with `data=`: no Content-Type header at all. */
  post(path: string, model: unknown): Promise<Answer>;
  /**
   * The same, with the JSON text as pydantic wrote it: its float lexemes (`1.5e-7`), which
   * JSON.stringify of a JS value cannot reproduce.
   */
  postText(path: string, json: string): Promise<Answer>;
  /** The same with PUT (`self.put(url, data=…)`: the tag and alias writes). */
  put(path: string, model: unknown): Promise<Answer>;
  /** `self.get(url, params=…)`: no body. */
  get(path: string, params: Record<string, string>): Promise<Answer>;
  /** `httpx.post(files={"file": (name, bytes)}, data={...})`: multipart/form-data. */
  upload(path: string, data: Record<string, string>, file: { name: string; bytes: Uint8Array }): Promise<{ status: number; body: unknown }>;
}

export function pythonSdk(baseUrl: string, apiKey: string): PythonSdk {
  const authorization = `Basic ${Buffer.from(`api:${apiKey}`).toString('base64')}`;
  const send = async (method: string, path: string, json?: string): Promise<Answer> => {
    // A Uint8Array body: fetch adds no Content-Type, as httpx does with raw content.
    const res = await fetch(`${baseUrl}${path}`, {
      method,
      headers: { authorization, 'user-agent': 'python-httpx/0.28.1' },
      ...(json === undefined ? {} : { body: new TextEncoder().encode(json) }),
    });
    return { status: res.status, json: () => res.json(), bytes: async () => new Uint8Array(await res.arrayBuffer()) };
  };
  return {
    post: (path, model) => send('POST', path, JSON.stringify(model)),
    postText: (path, json) => send('POST', path, json),
    put: (path, model) => send('PUT', path, JSON.stringify(model)),
    get: (path, params) => send('GET', `${path}?${new URLSearchParams(params)}`),
    async upload(path, data, file) {
      // httpx's multipart: the data fields first, then the file part with a type guessed from its name.
      const boundary = `httpx${Math.random().toString(16).slice(2)}`;
      const parts: Uint8Array[] = [];
      const text = (s: string) => parts.push(new TextEncoder().encode(s));
      for (const [name, value] of Object.entries(data))
        text(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`);
      text(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${file.name}"\r\nContent-Type: text/x-python\r\n\r\n`);
      parts.push(file.bytes);
      text(`\r\n--${boundary}--\r\n`);
      const res = await fetch(`${baseUrl}${path}`, {
        method: 'POST',
        headers: { authorization, 'content-type': `multipart/form-data; boundary=${boundary}` },
        body: Buffer.concat(parts),
      });
      return { status: res.status, body: await res.json() };
    },
  };
}
