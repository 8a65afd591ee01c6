// Feedback on one call: the reviewer's reactions and notes (Weave's wandb.reaction.1 and
// wandb.note.1, written with feedback/create), and every row with its author and time. A click on
// one's own reaction takes it back (feedback/purge of that row's id).
import type { CallSchema, FeedbackPurgeReq } from '@weft/types';
import { useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { formatTime } from '../call-facts.ts';
import { authorOf, feedbackOf, NOTE_TYPE, REACTION_TYPE, reactionsOf, viewOf } from '../feedback-facts.ts';
import { READ_ONLY_NOTE, useApi, useReadOnly, useSignedInUser } from '../session.tsx';
import { ErrorView } from './query-state.tsx';

const EMOJIS = ['👍', '👎', '🎉', '😕', '❤️'];
const NOTE_MAX = 1024;

export function CallFeedback({ call }: { call: CallSchema }) {
  const rows = feedbackOf(call);
  const me = useSignedInUser();
  const readOnly = useReadOnly(call.project_id.split('/')[0]);
  const { $api } = useApi();
  const queryClient = useQueryClient();
  const done = { onSuccess: () => queryClient.invalidateQueries() };
  const create = $api.useMutation('post', '/feedback/create', done);
  const purge = $api.useMutation('post', '/feedback/purge', done);
  const [note, setNote] = useState('');
  const weaveRef = `weave:///${call.project_id}/call/${call.id}`;
  const give = (feedback_type: string, payload: Record<string, unknown>) =>
    create.mutateAsync({ body: { project_id: call.project_id, weave_ref: weaveRef, feedback_type, payload } });
  const react = (emoji: string, mineId: string | undefined) => {
    if (mineId === undefined) void give(REACTION_TYPE, { emoji });
    else {
      // Weave's purge takes only id equality. The spec types `$expr` as an open object.
      const byId: { $expr: Record<string, unknown> } = { $expr: { $eq: [{ $getField: 'id' }, { $literal: mineId }] } };
      purge.mutate({ body: { project_id: call.project_id, query: byId as FeedbackPurgeReq['query'] } });
    }
  };
  const addNote = (e: FormEvent) => {
    e.preventDefault();
    if (note.trim() === '') return;
    void give(NOTE_TYPE, { note }).then(() => setNote(''));
  };
  const counts = new Map(reactionsOf(rows, me).map((r) => [r.emoji, r]));
  const busy = create.isPending || purge.isPending;
  const disabled = busy || readOnly || me === undefined;
  return (
    <section aria-label="Feedback">
      <h3>Feedback</h3>
      <div className="reactions" role="group" aria-label="Reactions">
        {[...new Set([...EMOJIS, ...counts.keys()])].map((emoji) => {
          const entry = counts.get(emoji);
          return (
            <button
              key={emoji}
              type="button"
              aria-pressed={entry?.mineId !== undefined}
              disabled={disabled}
              title={readOnly ? READ_ONLY_NOTE : entry?.mineId ? 'Take back your reaction' : `React with ${emoji}`}
              onClick={() => react(emoji, entry?.mineId)}
            >
              {emoji} {entry ? entry.count : ''}
            </button>
          );
        })}
      </div>
      <form className="note-form" onSubmit={addNote} aria-label="Add a note">
        <textarea
          aria-label="Note"
          rows={2}
          maxLength={NOTE_MAX}
          placeholder="Add a note"
          value={note}
          disabled={readOnly}
          onChange={(e) => setNote(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === 'Enter' && (e.metaKey || e.ctrlKey)) addNote(e);
          }}
        />
        <button type="submit" disabled={disabled || note.trim() === ''}>
          Add note
        </button>
        {readOnly && <span className="muted"> {READ_ONLY_NOTE}</span>}
      </form>
      {(create.error ?? purge.error) && <ErrorView error={create.error ?? purge.error} />}
      {rows.length > 0 && (
        <table className="grid compact" aria-label="Feedback rows">
          <thead>
            <tr>
              <th>Type</th>
              <th>Value</th>
              <th>By</th>
              <th>When</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => {
              const view = viewOf(row);
              return (
                <tr key={row.id}>
                  <td>{view.label}</td>
                  <td className={view.kind === 'note' ? 'note' : undefined}>{view.value}</td>
                  <td>{authorOf(row)}</td>
                  <td>{formatTime(row.created_at)}</td>
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
    </section>
  );
}
