export function ProgressBar({ percent, label, testId }: { percent: number; label: string; testId: string }) {
  return (
    <div className="progress" data-testid={testId}>
      <div className="progress-track" role="progressbar" aria-valuemin={0} aria-valuemax={100} aria-valuenow={percent} aria-label={label}>
        <div className="progress-fill" style={{ width: `${percent}%` }} />
      </div>
      <span className="progress-label">{label}</span>
    </div>
  );
}
