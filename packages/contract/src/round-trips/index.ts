// Round trips: state written by one operation is what the next one reads. Server only (the
// mock answers fixed examples).
import { describe } from 'vitest';
import type { SuiteContext } from '../suite-context.ts';
import { defineAnnotationQueueRoundTrip } from './annotation-queues.ts';
import { defineCallRoundTrip } from './calls.ts';
import { defineFeedbackRoundTrip } from './feedback.ts';
import { defineFileRoundTrip } from './files.ts';
import { defineModelRoundTrip } from './models.ts';
import { defineObjectRoundTrip } from './objects.ts';
import { defineServiceRoundTrip } from './service.ts';
import { defineTableRoundTrip } from './tables.ts';
import { defineWeaveExtrasRoundTrip } from './weave-extras.ts';

export function defineRoundTrips(s: SuiteContext): void {
  describe('round trips', () => {
    defineServiceRoundTrip(s);
    defineObjectRoundTrip(s);
    defineTableRoundTrip(s);
    defineCallRoundTrip(s);
    defineFileRoundTrip(s);
    defineFeedbackRoundTrip(s);
    defineAnnotationQueueRoundTrip(s);
    defineModelRoundTrip(s);
    defineWeaveExtrasRoundTrip(s);
  });
}
