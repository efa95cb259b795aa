// Sharing a file or a task's output by link, QR code or email: the modal of tool results and the
// panel the share-document page shows in place. Every limit (who may share, how many a day, whether
// a share may be permanent) is the server's; the page only asks early where it already knows.
import {
  DEFAULT_SHARE_DAYS,
  ErrorCode,
  MAX_SHARE_RECIPIENTS,
  PERMANENT_SHARE_DAYS,
  SHARE_DAYS,
  ShareType,
  type LimitRefusal,
  type ShareRequest,
} from '@quire/contracts';
import { useState, type KeyboardEvent } from 'react';
import { UpgradeDialog } from '../account/UpgradeDialog';
import { useSession } from '../account/session';
import { ApiError } from '../api/client';
import { shareFile, shareFileQrCode } from '../api/share';
import { useI18n, useT } from '../i18n/I18nProvider';
import { splitLocalePrefix } from '../i18n/locales';
import { useSizes } from '../ui/useSizes';
import { Icon } from '../ui/Icon';
import { useToast } from '../ui/Toast';
import { useModal } from '../ui/useModal';
import {
  addChip,
  canSendEmail,
  ccProblem,
  CHIP_KEYS,
  counterOver,
  finishEditing,
  formatShareDate,
  initialSender,
  isShareEmail,
  removeChip,
  removeLastChip,
  startEditing,
  type CcProblem,
  type CcState,
} from './shareForm';
import { useCopyLink } from './useCopyLink';
import { Tabs } from '../ui/Tabs';
import './share.css';

type ShareDays = (typeof SHARE_DAYS)[number];
const DAY_MS = 86_400_000;
/** The longest share short of permanent: what a plan without permanent shares may choose, as the server's refusal names it. */
const LONGEST_EXPIRING_DAYS = Math.max(...SHARE_DAYS.filter((d) => d !== PERMANENT_SHARE_DAYS));

/** What is shared: a file (a cloud file or an uploaded tool file) or a task's output. */
export interface ShareTarget {
  shareKey: string;
  fileType: ShareRequest['file_type'];
  /** Which output of a task with several. */
  index?: number;
  fileName: string;
  /** Shown beside the name where known (an upload's). */
  fileSize?: number;
}

export function ShareDialog({ onClose, ...target }: ShareTarget & { onClose(): void }) {
  const t = useT();
  const modal = useModal(onClose);
  return (
    <dialog {...modal} className="share-dialog" aria-labelledby="share-title" data-testid="share-dialog">
      <header className="share-head">
        <h2 id="share-title">{t('share.title')}</h2>
        <button type="button" className="icon-button" aria-label={t('account.close')} data-testid="share-close" onClick={onClose}>
          <Icon name="close" />
        </button>
      </header>
      <SharePanel {...target} />
    </dialog>
  );
}

type Tab = 'email' | 'link';

/** The tabs and their forms; mounted afresh for each opening, so each starts on the link tab, cleared. */
export function SharePanel(target: ShareTarget) {
  const sizes = useSizes();
  const t = useT();
  const session = useSession();
  const [tab, setTab] = useState<Tab>('link');
  const [days, setDays] = useState<ShareDays>(DEFAULT_SHARE_DAYS);
  const [refusal, setRefusal] = useState<LimitRefusal>();
  // A change of tab or expiry leaves any link made before: the button offers to make a new one.
  const [generation, setGeneration] = useState(0);
  const paying = !!session.user && (session.user.pay || session.user.ai);

  const chooseDays = (next: ShareDays) => {
    if (next === PERMANENT_SHARE_DAYS && !paying) {
      setRefusal({ upgrade: 'shareUpgrade', limit: LONGEST_EXPIRING_DAYS });
      return;
    }
    setDays(next);
    setGeneration((g) => g + 1);
  };
  const chooseTab = (next: Tab) => {
    setTab(next);
    setGeneration((g) => g + 1);
  };
  const request = (shareType: ShareRequest['share_type']): ShareRequest => ({
    share_key: target.shareKey,
    share_type: shareType,
    file_type: target.fileType,
    ...(target.index !== undefined && { index: target.index }),
    share_days: days,
    language: splitLocalePrefix(window.location.pathname).prefix || undefined,
    version: 'app',
  });

  return (
    <div className="share-panel" data-testid="share-panel">
      <p className="share-file">
        <Icon name="file" size={18} />
        <span className="file-name" data-testid="share-file-name">
          {target.fileName}
        </span>
        {target.fileSize !== undefined && <span className="muted">{sizes.bytes(target.fileSize)}</span>}
      </p>
      <Tabs
        tabs={[
          {
            id: 'email',
            label: (
              <>
                <Icon name="mail" size={18} />
                {t('share.tabEmail')}
              </>
            ),
          },
          {
            id: 'link',
            label: (
              <>
                <Icon name="link" size={18} />
                {t('share.tabLink')}
              </>
            ),
          },
        ]}
        current={tab}
        onChoose={chooseTab}
        testIdPrefix="share-tab-"
      />
      <label className="field share-days">
        <span className="field-label">{t('share.expiry')}</span>
        <select value={days} data-testid="share-days" onChange={(e) => chooseDays(Number(e.target.value) as ShareDays)}>
          {SHARE_DAYS.map((d) => (
            <option key={d} value={d}>
              {d === PERMANENT_SHARE_DAYS ? t('share.permanent') : d === 1 ? t('share.oneDay') : t('share.days', { days: d })}
            </option>
          ))}
        </select>
      </label>
      {tab === 'link' ? (
        <LinkForm key={generation} request={request} onRefusal={setRefusal} />
      ) : (
        <EmailForm request={request} onRefusal={setRefusal} />
      )}
      {refusal && <UpgradeDialog refusal={refusal} onClose={() => setRefusal(undefined)} />}
    </div>
  );
}

interface FormProps {
  request(shareType: ShareRequest['share_type']): ShareRequest;
  onRefusal(refusal: LimitRefusal): void;
}

/**
 * 3023 in the form's own words: a visitor is asked to sign in, an account whose plan has no sharing
 * gets the upgrade dialog, one past the day's shares is told so. Any other failure is a toast.
 */
function useShareFailure(onRefusal: (refusal: LimitRefusal) => void) {
  const t = useT();
  const toast = useToast();
  const session = useSession();
  const [limitText, setLimitText] = useState<string>();
  const fail = (e: unknown) => {
    if (!(e instanceof ApiError && e.code === ErrorCode.ShareLimit)) {
      toast(e instanceof Error ? e.message : String(e));
      return;
    }
    if (session.status !== 'signedIn') setLimitText(t('share.limitSignedOut'));
    else if (e.upgrade) {
      setLimitText(t('share.limitNotInPlan'));
      onRefusal(e.upgrade);
    } else setLimitText(t('share.limitSignedIn'));
  };
  const limit = limitText && (
    <p className="share-limit" role="alert" data-testid="share-limit">
      {limitText}
      {session.status === 'signedOut' && (
        <>
          {' '}
          <button type="button" className="link-button" onClick={() => session.openSignIn('signIn')}>
            {t('account.signIn')}
          </button>
        </>
      )}
    </p>
  );
  return { fail, limit, clear: () => setLimitText(undefined) };
}

type LinkMode = 'link' | 'qr';
/** `until`: the share's end (epoch ms), or null when permanent. */
type LinkResult = { url: string; qrImage?: string; until: number | null };

function LinkForm({ request, onRefusal }: FormProps) {
  const { t, locale } = useI18n();
  const toast = useToast();
  const [mode, setMode] = useState<LinkMode>('link');
  const [result, setResult] = useState<LinkResult>();
  const [busy, setBusy] = useState(false);
  const failure = useShareFailure(onRefusal);

  const chooseMode = (next: LinkMode) => {
    setMode(next);
    setResult(undefined);
  };
  const generate = async () => {
    setBusy(true);
    failure.clear();
    try {
      const asked = request(mode === 'link' ? ShareType.Link : ShareType.QrCode);
      const answer = await (mode === 'link' ? shareFile(asked) : shareFileQrCode(asked));
      const until = asked.share_days === PERMANENT_SHARE_DAYS ? null : Date.now() + asked.share_days * DAY_MS;
      setResult({ url: answer.share_url, ...(mode === 'qr' && { qrImage: answer.qr_images[0] }), until });
    } catch (e) {
      failure.fail(e);
    } finally {
      setBusy(false);
    }
  };
  const copyLink = useCopyLink();
  const copy = async (url: string) => {
    // Without the clipboard the shown link is selected, to copy by hand.
    if (!(await copyLink(url))) document.querySelector<HTMLInputElement>('[data-testid="share-url"]')?.select();
  };
  const saveQr = (image: string) => {
    const link = document.createElement('a');
    link.href = image;
    link.download = t('share.qrFileName');
    link.click();
    toast(t('share.qrSaved'), { kind: 'success' });
  };

  const action = () => {
    if (!result) void generate();
    else if (result.qrImage) saveQr(result.qrImage);
    else void copy(result.url);
  };
  const generateLabel = mode === 'link' ? t('share.generateLink') : t('share.generateQr');
  const doneLabel = result?.qrImage ? t('share.saveQr') : t('share.copyLink');
  const label = busy ? t('share.generating') : result ? doneLabel : generateLabel;

  return (
    <div className="share-form" data-testid="share-link-form">
      <fieldset className="segmented share-mode" aria-label={t('share.linkMode')}>
        {(['link', 'qr'] as const).map((m) => (
          <label key={m}>
            <input
              className="radio-cover"
              type="radio"
              name="share-mode"
              value={m}
              checked={mode === m}
              data-testid={`share-mode-${m}`}
              onChange={() => chooseMode(m)}
            />
            <Icon name={m === 'link' ? 'link' : 'qrCode'} size={18} />
            {m === 'link' ? t('share.modeLink') : t('share.modeQr')}
          </label>
        ))}
      </fieldset>
      <div className="share-result">
        {result?.qrImage && <img className="share-qr" src={result.qrImage} alt={t('share.qrAlt')} data-testid="share-qr" />}
        {result && (
          <input
            className="share-url"
            readOnly
            value={result.url}
            aria-label={t('share.linkLabel')}
            data-testid="share-url"
            onFocus={(e) => e.target.select()}
          />
        )}
        {result && (
          <p className="muted" data-testid="share-until">
            {result.until === null ? t('share.neverExpires') : t('share.worksUntil', { date: formatShareDate(result.until, locale) })}
          </p>
        )}
        {!result && !failure.limit && <p className="muted">{mode === 'link' ? t('share.linkNote') : t('share.qrNote')}</p>}
        {failure.limit}
      </div>
      <button type="button" className="button button-primary share-action" disabled={busy} data-testid="share-link-action" onClick={action}>
        <Icon name={!result ? (mode === 'link' ? 'link' : 'qrCode') : result.qrImage ? 'download' : 'copy'} size={18} />
        {label}
      </button>
    </div>
  );
}

function EmailForm({ request, onRefusal }: FormProps) {
  const t = useT();
  const toast = useToast();
  const session = useSession();
  const [sender, setSender] = useState(() => initialSender(session.user?.email));
  const [senderTouched, setSenderTouched] = useState(false);
  const [cc, setCc] = useState<CcState>({ chips: [] });
  const [typed, setTyped] = useState('');
  const [message, setMessage] = useState('');
  const [busy, setBusy] = useState(false);
  const failure = useShareFailure(onRefusal);
  const problemText = useCcProblemText();
  const problem = ccProblem(cc);
  const senderProblem = senderTouched && !isShareEmail(sender.trim());

  /** Takes the typed address as a chip, if the rules let it in. */
  const commit = (text: string) => {
    const { state, taken } = addChip(cc, text);
    setCc(state);
    setTyped(taken ? '' : text);
  };
  const onKeyDown = (e: KeyboardEvent<HTMLInputElement>) => {
    if (CHIP_KEYS.includes(e.key)) {
      e.preventDefault();
      commit(typed);
    } else if (e.key === 'Backspace' && typed === '') setCc(removeLastChip(cc));
  };
  const send = async () => {
    setBusy(true);
    failure.clear();
    try {
      await shareFile({
        ...request(ShareType.Email),
        source_email: sender.trim(),
        target_email: cc.chips.map((c) => c.email).join(','),
        ...(message.trim() && { message: message.trim() }),
      });
      toast(t('share.emailSent'), { kind: 'success' });
      setCc({ chips: [] });
      setMessage('');
    } catch (e) {
      failure.fail(e);
    } finally {
      setBusy(false);
    }
  };

  return (
    <form
      className="share-form share-email"
      data-testid="share-email-form"
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        void send();
      }}
    >
      <label className="field">
        <span className="field-label">{t('share.from')}</span>
        <input
          type="email"
          value={sender}
          autoComplete="email"
          data-testid="share-sender"
          aria-invalid={senderProblem || undefined}
          onChange={(e) => setSender(e.target.value)}
          onBlur={() => setSenderTouched(true)}
        />
        {senderProblem && (
          <span className="field-error" data-testid="share-sender-error">
            {sender.trim() ? t('share.invalidEmail', { email: sender.trim() }) : t('share.senderRequired')}
          </span>
        )}
      </label>
      <div className="field">
        <span className="field-label share-to-label">
          <span id="share-to-label">{t('share.to')}</span>
          <span className={`share-counter ${counterOver(cc) ? 'over' : ''}`} data-testid="share-counter">
            {cc.chips.length}/{MAX_SHARE_RECIPIENTS}
          </span>
        </span>
        <div className={`cc-field ${problem ? 'invalid' : ''}`} data-testid="share-cc">
          {cc.chips.map((chip, index) =>
            chip.editing ? (
              <input
                // biome-ignore lint/suspicious/noArrayIndexKey: a chip's address changes as it is edited; its place does not
                key={index}
                className="cc-edit"
                defaultValue={chip.email}
                // biome-ignore lint/a11y/noAutofocus: the chip was clicked to be edited
                autoFocus
                aria-label={t('share.editAddress')}
                data-testid="share-chip-edit"
                onKeyDown={(e) => {
                  if (e.key === 'Enter') {
                    e.preventDefault();
                    e.currentTarget.blur();
                  }
                }}
                onBlur={(e) => setCc(finishEditing(cc, index, e.target.value))}
              />
            ) : (
              // biome-ignore lint/suspicious/noArrayIndexKey: addresses are unique but may be edited into one another's
              <span key={index} className={`cc-chip ${chip.valid ? '' : 'invalid'}`} data-testid="share-chip" data-valid={chip.valid}>
                <button
                  type="button"
                  className="cc-chip-text"
                  title={t('share.editAddress')}
                  onClick={() => setCc(startEditing(cc, index))}
                >
                  {chip.email}
                </button>
                <button
                  type="button"
                  className="cc-chip-remove"
                  aria-label={t('share.removeAddress', { email: chip.email })}
                  onClick={() => setCc(removeChip(cc, index))}
                >
                  <Icon name="close" size={14} />
                </button>
              </span>
            ),
          )}
          <input
            className="cc-input"
            value={typed}
            aria-labelledby="share-to-label"
            placeholder={cc.chips.length === 0 ? t('share.toPlaceholder') : ''}
            data-testid="share-cc-input"
            onChange={(e) => {
              setTyped(e.target.value);
              if (cc.problem) setCc({ chips: cc.chips });
            }}
            onKeyDown={onKeyDown}
            onBlur={() => commit(typed)}
          />
        </div>
        {problem && (
          <span className="field-error" data-testid="share-cc-error">
            {problemText(problem)}
          </span>
        )}
      </div>
      <label className="field">
        <span className="field-label">{t('share.message')}</span>
        <textarea
          value={message}
          maxLength={2000}
          rows={3}
          data-testid="share-message"
          placeholder={t('share.messagePlaceholder')}
          onChange={(e) => setMessage(e.target.value)}
        />
      </label>
      {failure.limit}
      <button
        type="submit"
        className="button button-primary share-action"
        disabled={busy || !canSendEmail(sender, cc, typed)}
        data-testid="share-send"
      >
        <Icon name="mail" size={18} />
        {busy ? t('share.sending') : t('share.send')}
      </button>
    </form>
  );
}

function useCcProblemText(): (problem: CcProblem) => string {
  const { t } = useI18n();
  return (problem) => {
    switch (problem.kind) {
      case 'tooMany':
        return t('share.tooMany', { max: MAX_SHARE_RECIPIENTS });
      case 'duplicate':
        return t('share.duplicate');
      case 'invalid':
        return t('share.invalidEmail', { email: problem.email });
    }
  };
}
