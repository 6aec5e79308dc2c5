/** A determinate progress bar: named by `label`, its state read out as `text` (also shown above it). */

export function ProgressBar(props: { value: number; max: number; label: string; text: string }) {
  const max = Math.max(1, props.max);
  const value = Math.max(0, Math.min(props.value, max));
  return (
    <div>
      <div class="qf-small" aria-hidden="true">
        {props.text}
      </div>
      <progress
        class="qf-progress"
        value={value}
        max={max}
        aria-label={props.label}
        aria-valuenow={value}
        aria-valuemin={0}
        aria-valuemax={max}
        aria-valuetext={props.text}
      />
    </div>
  );
}
