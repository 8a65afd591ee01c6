// One trajectory of a step, collapsible: closed, its reward and a line of what was said; open,
// its metrics and the conversation (in a box of bounded height, so one long trajectory does not
// stretch the page).
import type { TrajectoryRecord } from '@weft/types';
import { ChatView } from './chat-view.tsx';
import { JsonView } from './json-view.tsx';
import { rewardOf, summaryOf, trajectoryMessages } from '../trajectory-order.ts';

export const formatReward = (r: number | null) => (r === null ? '—' : Number(r.toPrecision(4)).toString());

export function TrajectoryItem({ record }: { record: TrajectoryRecord }) {
  const t = record.trajectory;
  const messages = trajectoryMessages(record);
  return (
    <li className="trajectory">
      <details>
        <summary>
          <strong className="reward" data-reward={rewardOf(record) ?? ''}>
            Reward {formatReward(rewardOf(record))}
          </strong>{' '}
          <span className="trajectory-summary">{summaryOf(record)}</span>
        </summary>
        <p className="muted mono">{record.id}</p>
        {Object.keys(t.metrics ?? {}).length > 0 && <JsonView value={t.metrics} />}
        <div className="trajectory-messages">
          {messages ? <ChatView messages={messages} /> : <JsonView value={t.messages_and_choices ?? []} />}
        </div>
      </details>
    </li>
  );
}
