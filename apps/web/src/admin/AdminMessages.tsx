// The operator's messages: send a message or system notice to everyone, the accounts on a plan or
// one account; see each one sent with how many have read it, and delete one. Users read them
// under the bell.
import { plans, type MessageAudience, type Plan, type SentMessage, type TemplateType } from '@quire/contracts';
import { type FormEvent, useCallback, useEffect, useState } from 'react';
import { PLAN_NAMES } from '../account/accountForms';
import { FormError } from '../account/formParts';
import { deleteMessage, fetchSentMessages, sendMessage } from '../api/messages';
import { useI18n } from '../i18n/I18nProvider';
import { Icon } from '../ui/Icon';

export function AdminMessages() {
  const { t, locale } = useI18n();
  const [sent, setSent] = useState<SentMessage[]>([]);
  const [kind, setKind] = useState<TemplateType>(1);
  const [audience, setAudience] = useState<MessageAudience>('everyone');
  const [plan, setPlan] = useState<Plan>('premium');
  const [email, setEmail] = useState('');
  const [title, setTitle] = useState('');
  const [remark, setRemark] = useState('');
  const [link, setLink] = useState('');
  const [image, setImage] = useState('');
  const [error, setError] = useState<unknown>();

  const reload = useCallback(() => fetchSentMessages().then(setSent, setError), []);
  useEffect(() => {
    void reload();
  }, [reload]);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setError(undefined);
    try {
      await sendMessage({
        template_type: kind,
        audience,
        ...(audience === 'plan' && { plan }),
        ...(audience === 'account' && { email }),
        title,
        remark,
        site_url: link,
        site_img: image,
      });
      setTitle('');
      setRemark('');
      setLink('');
      setImage('');
      await reload();
    } catch (err) {
      setError(err);
    }
  };
  const remove = async (id: string) => {
    try {
      await deleteMessage(id);
      await reload();
    } catch (err) {
      setError(err);
    }
  };

  const when = (s: number) => new Date(s * 1000).toLocaleString(locale, { dateStyle: 'medium', timeStyle: 'short' });
  const audienceText = (m: SentMessage) =>
    m.audience === 'everyone'
      ? t('admin.messageToEveryone')
      : m.audience === 'plan'
        ? t('admin.messageToPlan', { plan: t(PLAN_NAMES[m.audience_name as Plan] ?? 'account.planFree') })
        : m.audience_name || t('admin.messageDeletedAccount');
  return (
    <section className="card admin-banners admin-messages" data-testid="admin-messages">
      <h2>{t('admin.messages')}</h2>
      <p className="ai-hint">{t('admin.messagesHint')}</p>
      <form className="admin-banner-form admin-message-form" onSubmit={(e) => void submit(e)}>
        <label className="field">
          <span className="field-label">{t('admin.messageKind')}</span>
          <select value={kind} onChange={(e) => setKind(Number(e.target.value) === 2 ? 2 : 1)} data-testid="message-kind">
            <option value={1}>{t('messages.tabMessages')}</option>
            <option value={2}>{t('messages.tabSystem')}</option>
          </select>
        </label>
        <label className="field">
          <span className="field-label">{t('admin.messageAudience')}</span>
          <select value={audience} onChange={(e) => setAudience(e.target.value as MessageAudience)} data-testid="message-audience">
            <option value="everyone">{t('admin.messageToEveryone')}</option>
            <option value="plan">{t('admin.messageAudiencePlan')}</option>
            <option value="account">{t('admin.messageAudienceAccount')}</option>
          </select>
        </label>
        {audience === 'plan' && (
          <label className="field">
            <span className="field-label">{t('admin.messagePlan')}</span>
            <select value={plan} onChange={(e) => setPlan(e.target.value as Plan)} data-testid="message-plan">
              {plans.map((p) => (
                <option key={p} value={p}>
                  {t(PLAN_NAMES[p])}
                </option>
              ))}
            </select>
          </label>
        )}
        {audience === 'account' && (
          <label className="field">
            <span className="field-label">{t('admin.messageEmail')}</span>
            <input type="email" value={email} required onChange={(e) => setEmail(e.target.value)} data-testid="message-email" />
          </label>
        )}
        <label className="field">
          <span className="field-label">{t('admin.messageTitle')}</span>
          <input value={title} maxLength={200} required onChange={(e) => setTitle(e.target.value)} data-testid="message-title" />
        </label>
        <label className="field admin-message-remark">
          <span className="field-label">{t('admin.messageRemark')}</span>
          <textarea value={remark} maxLength={2000} rows={2} onChange={(e) => setRemark(e.target.value)} data-testid="message-remark" />
        </label>
        <label className="field">
          <span className="field-label">{t('admin.messageLink')}</span>
          <input
            value={link}
            maxLength={2000}
            placeholder="/pricing"
            onChange={(e) => setLink(e.target.value)}
            data-testid="message-link"
          />
        </label>
        <label className="field">
          <span className="field-label">{t('admin.messageImage')}</span>
          <input
            value={image}
            maxLength={2000}
            placeholder="https://"
            onChange={(e) => setImage(e.target.value)}
            data-testid="message-image"
          />
        </label>
        <button type="submit" className="button button-primary" data-testid="message-send">
          {t('admin.messageSend')}
        </button>
      </form>
      <FormError error={error} />
      {sent.length > 0 && (
        <ul className="admin-banner-list admin-message-list">
          {sent.map((m) => (
            <li key={m.message_id} data-testid="admin-message">
              <span className="admin-banner-state">
                {m.template_type === 1 ? t('admin.messageKindMessage') : t('admin.messageKindSystem')}
              </span>
              <span className="admin-banner-title">{m.title}</span>
              <span className="admin-banner-link">{audienceText(m)}</span>
              <span className="admin-banner-window">
                {when(m.create_time)} · <span data-testid="admin-message-reads">{t('admin.messageReads', { count: m.read_count })}</span>
              </span>
              <button
                type="button"
                className="icon-button"
                aria-label={t('admin.messageDelete')}
                title={t('admin.messageDelete')}
                onClick={() => void remove(m.message_id)}
                data-testid="message-delete"
              >
                <Icon name="trash" size={16} />
              </button>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
