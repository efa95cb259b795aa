// The personal centre's AI part: the share of the plan's AI tokens left, asked for each time the
// centre opens so that it is current after an AI answer.
import type { TokenCheck } from '@quire/contracts';
import { useEffect, useState } from 'react';
import { aiTokens } from '../api/ai';
import { useI18n } from '../i18n/I18nProvider';
import { ProgressBar } from '../ui/ProgressBar';

export function AiTokensSummary() {
  const { t, locale } = useI18n();
  const [tokens, setTokens] = useState<TokenCheck | null>(null);
  useEffect(() => {
    let current = true;
    aiTokens().then(
      (check) => current && setTokens(check),
      () => undefined,
    );
    return () => {
      current = false;
    };
  }, []);
  if (!tokens) return null;
  const left = Math.max(0, tokens.total_tokens - tokens.used_tokens);
  const percent = tokens.total_tokens ? Math.floor((left / tokens.total_tokens) * 100) : 0;
  return (
    <div className="account-ai" data-testid="account-ai-tokens" data-percent={percent}>
      <span className="account-cloud-head">{t('account.aiTokens')}</span>
      <ProgressBar
        percent={percent}
        label={t('account.aiTokensLeft', { percent, left: left.toLocaleString(locale), total: tokens.total_tokens.toLocaleString(locale) })}
        testId="account-ai-bar"
      />
    </div>
  );
}
