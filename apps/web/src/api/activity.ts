// The activity dialog's calls: the operator's event (get-ad-list), the account's invite link and
// earnings, and /admin's activity settings.
import type { ActivitySettings, activitySettings, AdInfo, adInfo, ReferralInfo, referralInfo } from '@quire/contracts';
import { apiUrl, getJson, sendJson, type Answer } from './client';

export const fetchAdInfo = (): Promise<AdInfo> => getJson<Answer<typeof adInfo>>(apiUrl('get-ad-list'));

export const fetchReferral = (): Promise<ReferralInfo> => getJson<Answer<typeof referralInfo>>('/api/account/v1/referral');

export const fetchActivitySettings = (): Promise<ActivitySettings> =>
  getJson<Answer<typeof activitySettings>>('/api/account/v1/admin/activity');

export const saveActivitySettings = (settings: ActivitySettings): Promise<ActivitySettings> =>
  sendJson<Answer<typeof activitySettings>>('PUT', '/api/account/v1/admin/activity', settings);
