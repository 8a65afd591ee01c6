// The defaults ART leaves out. Newest ART dumps with exclude_defaults=True, so a field equal to
// its default is simply absent; older ART sends everything. Stored
// trajectories and groups always carry every field. Unknown keys (ART's `exchanges`, older
// `auto_metrics`, anything newer) are kept as they came, and elements of messages_and_choices
// are stored verbatim (a Choice's null sub-fields may be missing; that is not ours to fill).
//
// Only the top level of each object is copied: messages and logprobs are shared, not cloned.
// `start_time` is never sent by ART (exclude=True) and has no server-side meaning, so it is
// kept when present and not invented when absent.

type Json = Record<string, unknown>;

/** A trajectory with every ART field present. */
export function normaliseTrajectory(trajectory: Json): Json {
  return {
    ...trajectory,
    messages_and_choices: trajectory.messages_and_choices ?? [],
    tools: trajectory.tools ?? null,
    additional_histories: ((trajectory.additional_histories ?? []) as Json[]).map(normaliseHistory),
    reward: trajectory.reward ?? 0,
    initial_policy_version: trajectory.initial_policy_version ?? null,
    final_policy_version: trajectory.final_policy_version ?? null,
    metrics: trajectory.metrics ?? {},
    metadata: trajectory.metadata ?? {},
    logs: trajectory.logs ?? [],
  };
}

function normaliseHistory(history: Json): Json {
  return { ...history, messages_and_choices: history.messages_and_choices ?? [], tools: history.tools ?? null };
}

/** A group with every ART field present, without its trajectories (they are stored apart). */
export function normaliseGroup(group: Json): Json {
  const { trajectories: _stored_apart, ...rest } = group;
  return {
    ...rest,
    exceptions: group.exceptions ?? [],
    metadata: group.metadata ?? {},
    metrics: group.metrics ?? {},
    logs: group.logs ?? [],
  };
}

/** The group's trajectories; newest ART omits the key when there are none. */
export function trajectoriesOf(group: Json): Json[] {
  return (group.trajectories ?? []) as Json[];
}
