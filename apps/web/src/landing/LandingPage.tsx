// A marketing slug's landing page, drawn from the contracts' catalogue: the heading and lead, the
// upload box of the tool it advertises (files chosen here open that tool with them), the how-to
// steps, the FAQ and related pages. The server sends the same texts as HTML for crawlers.
import { landingPageBySlug, landingTextKeys, type LandingPage as Landing } from '@quire/contracts';
import { useRef } from 'react';
import { useNavigate } from 'react-router';
import { handOffFiles } from '../files/handOff';
import { useI18n } from '../i18n/I18nProvider';
import type { MessageKey } from '../i18n/translate';
import { appPages } from '../layout/navigation';
import { toolPageOf, type ToolLook } from '../tool/toolPages';
import { UploadPrompt } from '../tool/UploadPrompt';
import { Icon } from '../ui/Icon';
import { LocaleLink } from '../ui/LocaleLink';
import { IconTile } from '../ui/ToolIcon';
import { useDocumentTitle } from '../ui/useDocumentTitle';
import { useFileDrop } from '../ui/useFileDrop';
import './landing.css';

/** The catalogue's keys are en-us keys: the translation-keys test reads the same catalogue. */
const key = (k: string) => k as MessageKey;

/** What the upload box takes: the tool's files, or one PDF for the AI pages. */
function uploadOf(landing: Landing) {
  if (landing.target.kind === 'tool') {
    const { tool } = landing.target;
    return {
      extFrom: tool.extFrom,
      isSingleUpload: tool.isSingleUpload,
      accept: [tool.acceptFormat, ...tool.extFrom.map((e) => `.${e}`)].join(','),
    };
  }
  return { extFrom: ['pdf'], isSingleUpload: true, accept: '.pdf,application/pdf' };
}

/** The page the upload box opens ("/app/ai-read?mode=ask"). */
const appPathOf = (landing: Landing) =>
  landing.target.kind === 'tool' ? `/app/${landing.target.tool.slug}` : `/app/${landing.target.appPath}`;

function lookOf(landing: Landing): ToolLook {
  if (landing.target.kind === 'tool') return toolPageOf(landing.target.tool).look;
  const page = landing.target.appPath.split('?')[0]! as keyof typeof appPages;
  return appPages[page].look;
}

export function LandingPage({ slug }: { slug: string }) {
  const { t, localePath } = useI18n();
  const navigate = useNavigate();
  const input = useRef<HTMLInputElement>(null);
  const landing = landingPageBySlug(slug)!;
  const texts = landingTextKeys(slug);
  const upload = uploadOf(landing);
  const title = t(key(texts.title));
  useDocumentTitle(title);

  const open = (files: File[]) => {
    if (files.length === 0) return;
    const appPath = appPathOf(landing);
    handOffFiles(appPath.split('?')[0]!, upload.isSingleUpload ? files.slice(0, 1) : files);
    void navigate(localePath(appPath));
  };
  const drop = useFileDrop(open);

  return (
    <div className="landing" data-testid="landing-page">
      <section className="landing-hero">
        <h1>{title}</h1>
        <p className="landing-lead">{t(key(texts.lead))}</p>
        <div className={`landing-upload ${drop.active ? 'drop-active' : ''}`} data-testid="landing-upload" {...drop.dropProps}>
          <IconTile {...lookOf(landing)} size={56} />
          <UploadPrompt tool={upload} onPick={() => input.current?.click()} />
          {landing.target.kind === 'ai' && <p className="landing-note">{t('landing.aiSignIn')}</p>}
          <input
            ref={input}
            type="file"
            hidden
            accept={upload.accept}
            multiple={!upload.isSingleUpload}
            data-testid="landing-file"
            onChange={(e) => open([...(e.target.files ?? [])])}
          />
        </div>
        <ul className="landing-trust">
          {(['landing.trust.free', 'landing.trust.deleted', 'landing.trust.selfHosted'] as const).map((k) => (
            <li key={k}>
              <Icon name="check" size={18} />
              {t(k)}
            </li>
          ))}
        </ul>
      </section>

      <section className="landing-section" aria-labelledby="landing-steps">
        <h2 id="landing-steps">{t(key(texts.howTo))}</h2>
        <ol className="landing-steps">
          {texts.steps.map((step) => (
            <li key={step}>{t(key(step))}</li>
          ))}
        </ol>
      </section>

      <section className="landing-section" aria-labelledby="landing-faq">
        <h2 id="landing-faq">{t('landing.faqTitle')}</h2>
        <div className="landing-faq">
          {texts.faq.map(({ question, answer }) => (
            <details key={question}>
              <summary>
                {t(key(question))}
                <Icon name="chevronDown" size={20} />
              </summary>
              <p>{t(key(answer))}</p>
            </details>
          ))}
        </div>
      </section>

      <nav className="landing-section" aria-labelledby="landing-related">
        <h2 id="landing-related">{t('landing.relatedTitle')}</h2>
        <div className="tool-grid">
          {landing.related.map((related) => {
            const other = landingPageBySlug(related)!;
            const otherTexts = landingTextKeys(related);
            return (
              <LocaleLink key={related} to={`/${related}`} className="tool-card" data-testid="related-page">
                <IconTile {...lookOf(other)} />
                <h3>{t(key(otherTexts.title))}</h3>
                <p>{t(key(otherTexts.lead))}</p>
              </LocaleLink>
            );
          })}
        </div>
        <LocaleLink to="/all-tools" className="landing-all-tools">
          {t('landing.seeAllTools')}
          <Icon name="arrowRight" size={18} />
        </LocaleLink>
      </nav>
    </div>
  );
}
