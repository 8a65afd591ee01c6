// The demo's ART run, in the order of ART's training loop: at each of 20 steps the model's rollouts
// are logged (4 groups of 4 train trajectories, and 2 groups of val every 5 steps), then a training
// step saves the next checkpoint with its loss. Logs are recorded at steps 0–19 and checkpoints are
// steps 1–20, as ART does (step 0 is the base model). Rewards rise with the step, with noise.
import type * as T from '@weft/types';
import { seededRandom as random } from '@weft/core';

export const DEMO_STEPS = 20;

export interface DemoStep {
  step: number;
  logs: T.ModelLogReq[];
  /** Registered after the step's logs: the step the training produced, with the trainer's metrics. */
  checkpoint: { step: number; metrics: Record<string, number> };
}

export function demoRun(modelId: string): DemoStep[] {
  const rnd = random(11);
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
  const steps: DemoStep[] = [];
  for (let step = 0; step < DEMO_STEPS; step++) {
    const groups = (n: number, size: number) =>
      Array.from({ length: n }, (_, g) => ({ trajectories: Array.from({ length: size }, () => trajectory(step, g)) }));
    const logs: T.ModelLogReq[] = [{ model_id: modelId, split: 'train', trajectory_groups: groups(4, 4) }];
    if (step % 5 === 4) logs.push({ model_id: modelId, split: 'val', trajectory_groups: groups(2, 4) });
    const round = (x: number) => Math.round(x * 10_000) / 10_000;
    const metrics = { 'train/loss': round(0.9 * Math.exp(-step / 8) + 0.05 * rnd()), 'train/grad_norm': round(0.4 + 0.3 * rnd()) };
    steps.push({ step, logs, checkpoint: { step: step + 1, metrics } });
  }
  return steps;
}

/** Trajectories in the whole run (for the summary). */
export const trajectoryCount = (steps: DemoStep[]) =>
  steps.flatMap((s) => s.logs).reduce((n, log) => n + log.trajectory_groups.reduce((m, g) => m + (g.trajectories?.length ?? 0), 0), 0);
