/** A question's trust level and score, as a badge; "no score" where the service gave none. */
import type { TrustLevel } from '../../api/schemas';

export function TrustBadge(props: { trust: TrustLevel | null | undefined; score?: number | null }) {
  if (!props.trust) return <span class="qf-badge qf-muted">no score</span>;
  return (
    <span class={`qf-badge qf-trust-${props.trust}`}>
      {props.trust}
      {props.score != null ? ` ${Math.round(props.score)}` : ''}
    </span>
  );
}
