import type { RouterErrorBody } from './types.ts';

/** Thrown by the router before anything was sent; the server answers it in OpenAI's shape. */
export class RouterError extends Error implements RouterErrorBody {
  readonly status: number;
  readonly type: string;
  readonly code: string | null;
  readonly param: string | null;
  readonly retry_after_sec?: number;

  constructor(body: RouterErrorBody) {
    super(body.message);
    this.name = 'RouterError';
    this.status = body.status;
    this.type = body.type;
    this.code = body.code;
    this.param = body.param;
    if (body.retry_after_sec !== undefined) this.retry_after_sec = body.retry_after_sec;
  }

  toBody(): RouterErrorBody {
    return {
      status: this.status,
      type: this.type,
      code: this.code,
      param: this.param,
      message: this.message,
      ...(this.retry_after_sec === undefined ? {} : { retry_after_sec: this.retry_after_sec }),
    };
  }
}

export const isRouterError = (e: unknown): e is RouterError => e instanceof RouterError;
