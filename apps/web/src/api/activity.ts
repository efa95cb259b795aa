// The activity dialog's calls: the operator's event (get-ad-list), the account's invite link and
// earnings, and /admin's activity settings.
import { type ActivitySettings, activitySettings, type AdInfo, adInfo, type ReferralInfo, referralInfo } from '@quire/contracts';
import { apiUrl, getJson, sendJson } from './client';

export const fetchAdInfo = (): Promise<AdInfo> => getJson(apiUrl('get-ad-list'), adInfo);

export const fetchReferral = (): Promise<ReferralInfo> => getJson('/api/account/v1/referral', referralInfo);

export const fetchActivitySettings = (): Promise<ActivitySettings> => getJson('/api/account/v1/admin/activity', activitySettings);

export const saveActivitySettings = (settings: ActivitySettings): Promise<ActivitySettings> =>
  sendJson('PUT', '/api/account/v1/admin/activity', settings, activitySettings);
