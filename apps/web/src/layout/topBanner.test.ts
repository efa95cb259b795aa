import type { BannerResource } from '@quire/contracts';
import { describe, expect, it } from 'vitest';
import { bannerToShow } from './TopBanner';

const banner = (id: string, start: number, end: number): BannerResource => ({
  resource_id: id,
  title: id,
  jump_url: '/',
  display_start_time: start,
  display_end_time: end,
});

describe('bannerToShow', () => {
  const banners = [banner('past', 0, 100), banner('now', 100, 200), banner('later', 150, 300)];
  const never = () => false;

  it('shows the first banner whose window holds the present, its start in and its end out', () => {
    expect(bannerToShow(banners, 100_000, never)?.resource_id).toBe('now');
    expect(bannerToShow(banners, 199_999, never)?.resource_id).toBe('now');
    expect(bannerToShow(banners, 200_000, never)?.resource_id).toBe('later');
    expect(bannerToShow(banners, 300_000, never)).toBeUndefined();
    expect(bannerToShow(banners, 50_000, never)?.resource_id).toBe('past');
  });

  it('skips a banner closed here', () => {
    expect(bannerToShow(banners, 160_000, (b) => b.resource_id === 'now')?.resource_id).toBe('later');
  });
});
