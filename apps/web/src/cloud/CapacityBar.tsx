import type { CloudCapacity } from '@quire/contracts';
import { useT } from '../i18n/I18nProvider';
import { useSizes } from '../ui/useSizes';
import { ProgressBar } from '../ui/ProgressBar';
import { usedPercent } from './cloudModel';

/** "1.2 MB of 10 GB used" over a bar of the used share. */
export function CapacityBar({ capacity }: { capacity: CloudCapacity }) {
  const sizes = useSizes();
  const t = useT();
  const used = capacity.already_capacity;
  const total = capacity.total_capacity;
  return (
    <div className={`capacity ${used >= total ? 'capacity-full' : ''}`}>
      <ProgressBar
        percent={usedPercent(used, total)}
        label={t('cloud.capacityUsed', { used: sizes.bytes(used), total: sizes.gb(total) })}
        testId="cloud-capacity"
      />
    </div>
  );
}
