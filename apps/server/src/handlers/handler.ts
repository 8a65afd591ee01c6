import type { Request, Response } from 'express';
import type { Catalogue } from '@weft/core';
import type { Store } from '@weft/store';
import type { Authenticator } from '../auth/index.ts';

/** Everything a handler may use; injected so tests can build an app around any store. */
export interface Deps {
  store: Store;
  auth: Authenticator;
  catalogue: Catalogue;
  version: string;
}

export type Handler = (req: Request, res: Response) => Promise<void>;

/** Handlers keyed by operationId: one operationId = one handler key = one store method. */
export type Handlers = Record<string, Handler>;
