// The personal centre's part of the cloud: space used of the total, and the recently used files.
import type { CloudCapacity, CloudFile } from '@quire/contracts';
import { useEffect, useState } from 'react';
import { getCapacity, listRecent } from '../api/cloud';
import { useT } from '../i18n/I18nProvider';
import { Icon } from '../ui/Icon';
import { LocaleLink } from '../ui/LocaleLink';
import { CapacityBar } from './CapacityBar';
import { cloudPath } from './cloudModel';

/** How many recent files the personal centre lists. */
const RECENT_SHOWN = 5;

/** Asked for each time the personal centre opens, so it is current; `onNavigate` closes it. */
export function CloudSummary({ onNavigate }: { onNavigate(): void }) {
  const t = useT();
  const [capacity, setCapacity] = useState<CloudCapacity | null>(null);
  const [recent, setRecent] = useState<CloudFile[] | null>(null);
  useEffect(() => {
    let current = true;
    getCapacity().then(
      (c) => current && setCapacity(c),
      () => undefined,
    );
    listRecent().then(
      (files) => current && setRecent(files.slice(0, RECENT_SHOWN)),
      () => current && setRecent([]),
    );
    return () => {
      current = false;
    };
  }, []);
  return (
    <div className="account-cloud" data-testid="account-cloud">
      <div className="account-cloud-head">
        <span>{t('cloud.storage')}</span>
        <LocaleLink to={cloudPath(null)} className="link-button" data-testid="account-cloud-link" onClick={onNavigate}>
          {t('cloud.open')}
        </LocaleLink>
      </div>
      {capacity && <CapacityBar capacity={capacity} />}
      <span className="account-cloud-head">{t('cloud.recentFiles')}</span>
      {recent && recent.length === 0 && <p className="account-cloud-none">{t('cloud.noRecent')}</p>}
      {recent && recent.length > 0 && (
        <ul className="account-recent" data-testid="account-recent">
          {recent.map((file) => (
            <li key={file.file_id}>
              <LocaleLink to={cloudPath(file.folder_id)} className="account-recent-item" title={file.name} onClick={onNavigate}>
                <Icon name="file" size={16} />
                <span className="file-name">{file.name}</span>
              </LocaleLink>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
