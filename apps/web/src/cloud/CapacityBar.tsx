import type { CloudCapacity } from '@quire/contracts';
import { useT } from '../i18n/I18nProvider';
import { formatBytes } from '../ui/format';
import { ProgressBar } from '../ui/ProgressBar';
import { formatGb, usedPercent } from './cloudModel';

/** "1.2 MB of 10 GB used" over a bar of the used share. */
export function CapacityBar({ capacity }: { capacity: CloudCapacity }) {
  const t = useT();
  const used = capacity.already_capacity;
  const total = capacity.total_capacity;
  return (
    <div className={`capacity ${used >= total ? 'capacity-full' : ''}`}>
      <ProgressBar
        percent={usedPercent(used, total)}
        label={t('cloud.capacityUsed', { used: formatBytes(used), total: formatGb(total) })}
        testId="cloud-capacity"
      />
    </div>
  );
}
