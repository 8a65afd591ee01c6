// The demo's ART run: 20 steps, each a checkpoint and a train log of 4 groups of 4 trajectories,
// with a val log every 5 steps; rewards rise with the step, with noise, as a run that learns.
import type * as T from '@weft/types';
import { random } from './demo-traces.ts';

export const DEMO_STEPS = 20;

export interface DemoLog {
  step: number;
  body: T.ModelLogReq;
}

export function demoLogs(modelId: string): DemoLog[] {
  const rnd = random(11);
  const logs: DemoLog[] = [];
  const trajectory = (step: number, scenario: number) => {
    const skill = 1 / (1 + Math.exp(-(step - 8) / 3));
    const correct = rnd() < 0.15 + 0.8 * skill;
    const reward = Math.round((correct ? 0.6 + 0.4 * rnd() : 0.3 * rnd()) * 1000) / 1000;
    return {
      reward,
      metrics: { correct: correct ? 1 : 0, turns: 2 + Math.floor(rnd() * 4) },
      metadata: { scenario: `change-flight-${scenario}` },
      messages_and_choices: [
        { role: 'system', content: 'You are an airline support agent. Use the tools.' },
        { role: 'user', content: `Change my flight to Friday, booking ZX4${scenario}Q.` },
        {
          index: 0,
          finish_reason: 'stop',
          message: { role: 'assistant', content: correct ? 'Your flight is moved to Friday.' : 'I could not find that booking.' },
        },
      ],
    };
  };
  for (let step = 0; step < DEMO_STEPS; step++) {
    const groups = (n: number, size: number) =>
      Array.from({ length: n }, (_, g) => ({ trajectories: Array.from({ length: size }, () => trajectory(step, g)) }));
    logs.push({ step, body: { model_id: modelId, split: 'train', trajectory_groups: groups(4, 4) } });
    if (step % 5 === 4) logs.push({ step, body: { model_id: modelId, split: 'val', trajectory_groups: groups(2, 4) } });
  }
  return logs;
}
