import { toolDefinitions } from '@quire/contracts';
import { useT } from '../i18n/I18nProvider';
import { ToolCard } from '../ui/ToolCard';

/** The conversions from PDF: tools that take a PDF and make another kind of document (not a zip of its parts). */
const fromPdf = toolDefinitions.filter(
  (tool) => tool.listed !== false && tool.extFrom.join() === 'pdf' && !['pdf', 'zip', ''].includes(tool.extTo),
);

/**
 * Below the PDF converter's upload zone, which makes PDFs of any file: the other way, so the one
 * page offers every conversion (the spec's "files to PDF and PDF to files").
 */
export function FromPdfConversions() {
  const t = useT();
  return (
    <section className="tool-category from-pdf" data-testid="converter-from-pdf">
      <h3>{t('pdfConverter.fromPdf')}</h3>
      <div className="tool-grid">
        {fromPdf.map((tool) => (
          <ToolCard key={tool.slug} tool={tool} />
        ))}
      </div>
    </section>
  );
}
