// Making a signature: drawn, typed in a handwriting font, or a picture uploaded or taken from the
// account's cloud. Signed-in accounts may keep it for next time.
import { useId, useMemo, useState } from 'react';
import { readCloudFile } from '../api/cloud';
import { CloudFilePicker } from '../cloud/CloudFilePicker';
import { useT } from '../i18n/I18nProvider';
import { Icon } from '../ui/Icon';
import { FilePickButton } from '../ui/FilePickButton';
import { Modal } from '../ui/Modal';
import { Tabs } from '../ui/Tabs';
import { useToast } from '../ui/Toast';
import { SignaturePad } from './SignaturePad';
import {
  HANDWRITING_FONTS,
  INK_COLOURS,
  loadImage,
  strokesImage,
  typedFont,
  typedImage,
  uploadedImage,
  type HandwritingFont,
  type SignatureImage,
} from './signatureImage';
import type { Stroke } from './strokes';
import '../share/share.css';
import './sign.css';

type Tab = 'draw' | 'type' | 'upload';

/** The pictures a signature can be made of, from the device or the cloud. */
const PICTURE_EXTENSIONS = ['png', 'jpg', 'jpeg'];
const PICTURE_ACCEPT = ['image/png', 'image/jpeg', ...PICTURE_EXTENSIONS.map((ext) => `.${ext}`)].join(',');
const CLOUD_PICTURES = { extFrom: PICTURE_EXTENSIONS, isSingleUpload: true };

interface SignatureDialogProps {
  /** Offer "save for later" and a picture from the cloud: only an account keeps signatures and files. */
  hasAccount: boolean;
  onDone(image: SignatureImage, save: boolean): void;
  onClose(): void;
}

export function SignatureDialog({ hasAccount, onDone, onClose }: SignatureDialogProps) {
  const t = useT();
  const toast = useToast();
  const titleId = useId();
  const [tab, setTab] = useState<Tab>('draw');
  const [colour, setColour] = useState<string>(INK_COLOURS[0]);
  const [strokes, setStrokes] = useState<Stroke[]>([]);
  const [name, setName] = useState('');
  const [font, setFont] = useState<HandwritingFont>(HANDWRITING_FONTS[0]);
  const [picture, setPicture] = useState<HTMLImageElement>();
  const [clearWhite, setClearWhite] = useState(false);
  const [save, setSave] = useState(hasAccount);
  const [busy, setBusy] = useState(false);
  const [pickingFromCloud, setPickingFromCloud] = useState(false);

  // The preview is the image as it will be placed: with the white cleared when asked.
  const uploaded = useMemo(() => picture && uploadedImage(picture, clearWhite), [picture, clearWhite]);
  const ready = tab === 'draw' ? strokes.length > 0 : tab === 'type' ? name.trim() !== '' : !!picture;

  const finish = async () => {
    setBusy(true);
    try {
      const image = tab === 'draw' ? strokesImage(strokes) : tab === 'type' ? await typedImage(name.trim(), font, colour) : uploaded;
      if (image) onDone(image, hasAccount && save);
    } finally {
      setBusy(false);
    }
  };

  const pickPicture = async (file: Blob) => {
    try {
      setPicture(await loadImage(file));
    } catch {
      toast(t('sign.badPicture'));
    }
  };
  const pickFromCloud = async (fileId: string) => {
    setPickingFromCloud(false);
    try {
      await pickPicture(await readCloudFile(fileId));
    } catch (e) {
      toast(e instanceof Error ? e.message : String(e));
    }
  };

  const colours = (
    <fieldset className="ink-colours">
      <legend className="field-label">{t('sign.colour')}</legend>
      {INK_COLOURS.map((c, i) => (
        <label key={c} className="ink-colour" style={{ background: c }} title={t('sign.colourN', { n: i + 1 })}>
          <input
            type="radio"
            name={`${titleId}-ink`}
            checked={colour === c}
            aria-label={t('sign.colourN', { n: i + 1 })}
            data-testid="ink-colour"
            onChange={() => setColour(c)}
          />
        </label>
      ))}
    </fieldset>
  );

  return (
    <>
      <Modal className="share-dialog signature-dialog" labelledBy={titleId} testId="signature-dialog" onClose={onClose}>
        <div className="share-head">
          <h2 id={titleId}>{t('sign.createTitle')}</h2>
          <button type="button" className="icon-button" aria-label={t('sign.close')} onClick={onClose}>
            <Icon name="close" />
          </button>
        </div>
        <Tabs<Tab>
          tabs={[
            { id: 'draw', label: t('sign.tab.draw') },
            { id: 'type', label: t('sign.tab.type') },
            { id: 'upload', label: t('sign.tab.upload') },
          ]}
          current={tab}
          onChoose={setTab}
          testIdPrefix="signature-tab-"
        />
        <div className="signature-body">
          {tab === 'draw' && (
            <>
              <SignaturePad strokes={strokes} onStrokes={setStrokes} colour={colour} label={t('sign.padLabel')} />
              <div className="signature-tools">
                {colours}
                <button
                  type="button"
                  className="button button-ghost button-small"
                  disabled={!strokes.length}
                  data-testid="undo-stroke"
                  onClick={() => setStrokes(strokes.slice(0, -1))}
                >
                  <Icon name="rotateLeft" size={16} /> {t('sign.undo')}
                </button>
                <button
                  type="button"
                  className="button button-ghost button-small"
                  disabled={!strokes.length}
                  data-testid="clear-pad"
                  onClick={() => setStrokes([])}
                >
                  <Icon name="trash" size={16} /> {t('sign.clear')}
                </button>
              </div>
              <p className="panel-note">{t('sign.drawHint')}</p>
            </>
          )}
          {tab === 'type' && (
            <>
              <label className="field">
                <span className="field-label">{t('sign.yourName')}</span>
                <input
                  type="text"
                  value={name}
                  maxLength={60}
                  autoComplete="name"
                  data-testid="typed-name"
                  onChange={(e) => setName(e.target.value)}
                />
              </label>
              <fieldset className="typed-fonts">
                <legend className="field-label">{t('sign.font')}</legend>
                {HANDWRITING_FONTS.map((f) => (
                  <label key={f} className="typed-font" style={{ font: typedFont(f, 30), color: colour }}>
                    <input
                      type="radio"
                      name={`${titleId}-font`}
                      checked={font === f}
                      data-testid="typed-font"
                      onChange={() => setFont(f)}
                    />
                    <span>{name.trim() || t('sign.namePlaceholder')}</span>
                  </label>
                ))}
              </fieldset>
              <div className="signature-tools">{colours}</div>
            </>
          )}
          {tab === 'upload' && (
            <>
              <FilePickButton
                className="button button-outline signature-upload"
                accept={PICTURE_ACCEPT}
                testId="signature-file"
                onPick={(file) => void pickPicture(file)}
              >
                <Icon name="upload" size={18} /> {t('sign.choosePicture')}
              </FilePickButton>
              {hasAccount && (
                <button
                  type="button"
                  className="button button-ghost signature-upload"
                  data-testid="signature-from-cloud"
                  onClick={() => setPickingFromCloud(true)}
                >
                  <Icon name="cloud" size={18} /> {t('upload.fromCloud')}
                </button>
              )}
              {uploaded && <img className="signature-preview" src={uploaded.png} alt="" data-testid="signature-preview" />}
              <label className="check-row">
                <input type="checkbox" checked={clearWhite} data-testid="clear-white" onChange={(e) => setClearWhite(e.target.checked)} />
                {t('sign.clearWhite')}
              </label>
            </>
          )}
        </div>
        <div className="signature-foot">
          {hasAccount && (
            <label className="check-row">
              <input type="checkbox" checked={save} data-testid="save-signature" onChange={(e) => setSave(e.target.checked)} />
              {t('sign.saveForLater')}
            </label>
          )}
          <button
            type="button"
            className="button button-primary"
            disabled={!ready || busy}
            data-testid="use-signature"
            onClick={() => void finish()}
          >
            {t('sign.useSignature')}
          </button>
        </div>
      </Modal>
      {/* Beside the dialog, not in it: Escape closes the picker alone. */}
      {pickingFromCloud && (
        <CloudFilePicker
          takes={CLOUD_PICTURES}
          onClose={() => setPickingFromCloud(false)}
          onPick={([file]) => file && void pickFromCloud(file.file_id)}
        />
      )}
    </>
  );
}
