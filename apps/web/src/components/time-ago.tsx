// A time as "5 minutes ago", the exact time on hover (and to screen readers, as the <time>'s
// datetime), as Weave's and Phoenix's lists show it.
import { formatRelative, formatTime } from '../call-facts.ts';

export function TimeAgo({ iso }: { iso: string }) {
  return (
    <time dateTime={iso} title={formatTime(iso)}>
      {formatRelative(iso)}
    </time>
  );
}
