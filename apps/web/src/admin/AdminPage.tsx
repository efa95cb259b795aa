// The operator's page: every account with its plan, role, activity and what it holds, searched by
// address a page at a time; a plan changed here holds from the user's next call. The server
// decides who may see it (3015 for anyone but an operator): the page only mirrors that.
import { ErrorCode, plans, type AdminUser, type AdminUsersPage, type Plan } from '@quire/contracts';
import { type ReactNode, useEffect, useState } from 'react';
import { changeAccountPlan, fetchAccounts } from '../api/account';
import { ApiError } from '../api/client';
import { PLAN_NAMES } from '../account/accountForms';
import { FormError } from '../account/formParts';
import { useSession } from '../account/session';
import { useI18n } from '../i18n/I18nProvider';
import { SearchBox } from '../search/ToolSearch';
import { LocaleLink } from '../ui/LocaleLink';
import { useSizes } from '../ui/useSizes';
import { useToast } from '../ui/Toast';
import { useDocumentTitle } from '../ui/useDocumentTitle';
import { AdminActivity } from './AdminActivity';
import { AdminBanners } from './AdminBanners';
import { AdminMessages } from './AdminMessages';
import './admin.css';

/** Typing settles this long before the list is asked for. */
const SEARCH_DELAY_MS = 250;

export function AdminPage() {
  const { t } = useI18n();
  useDocumentTitle(t('admin.title'));
  return (
    <OperatorOnly>
      <AccountList />
      <AdminBanners />
      <AdminActivity />
      <AdminMessages />
    </OperatorOnly>
  );
}

/** Its children for an operator; a sign-in card for a visitor; "Page not found" for anyone else. */
export function OperatorOnly({ children }: { children: ReactNode }) {
  const { t } = useI18n();
  const session = useSession();
  if (session.status === 'loading') return null;
  if (!session.user) {
    return (
      <div className="admin-page">
        <section className="card admin-message" data-testid="admin-signed-out">
          <p>{t('admin.signIn')}</p>
          <button type="button" className="button button-primary" onClick={() => session.openSignIn('signIn')}>
            {t('account.signIn')}
          </button>
        </section>
      </div>
    );
  }
  if (!session.user.operator) return <NotFound />;
  return children;
}

function NotFound() {
  const { t } = useI18n();
  return (
    <div className="admin-page">
      <section className="card admin-message" data-testid="admin-not-found">
        <h1>{t('admin.notFound')}</h1>
      </section>
    </div>
  );
}

function AccountList() {
  const sizes = useSizes();
  const { t, locale } = useI18n();
  const toast = useToast();
  const [search, setSearch] = useState('');
  const [page, setPage] = useState(1);
  const [list, setList] = useState<AdminUsersPage>();
  const [error, setError] = useState<unknown>();

  useEffect(() => {
    let current = true;
    const timer = setTimeout(() => {
      fetchAccounts(search.trim(), page).then(
        (next) => {
          if (!current) return;
          setList(next);
          setError(undefined);
        },
        (e: unknown) => current && setError(e),
      );
    }, SEARCH_DELAY_MS);
    return () => {
      current = false;
      clearTimeout(timer);
    };
  }, [search, page]);

  // Made no longer an operator meanwhile: the server says so, and the page is gone for this user.
  if (error instanceof ApiError && error.code === ErrorCode.NotPermitted) return <NotFound />;

  const changePlan = async (user: AdminUser, plan: Plan) => {
    try {
      await changeAccountPlan(user.user_id, plan);
      setList((l) => l && { ...l, users: l.users.map((u) => (u.user_id === user.user_id ? { ...u, plan } : u)) });
      toast(t('admin.planChanged', { email: user.email, plan: t(PLAN_NAMES[plan]) }), { kind: 'success' });
    } catch (e) {
      toast(e instanceof Error ? e.message : String(e));
    }
  };

  const date = (ms: number) => (ms ? new Date(ms).toLocaleString(locale, { dateStyle: 'medium', timeStyle: 'short' }) : '—');
  const first = list && list.total > 0 ? (list.page - 1) * list.page_size + 1 : 0;
  const last = list ? Math.min(list.total, list.page * list.page_size) : 0;

  return (
    <div className="admin-page">
      <header className="admin-head">
        <h1>{t('admin.title')}</h1>
        <LocaleLink to="/app/automated-test" className="button button-outline button-small" data-testid="admin-self-check">
          {t('selfCheck.title')}
        </LocaleLink>
        <SearchBox
          value={search}
          onChange={(q) => {
            setSearch(q);
            setPage(1);
          }}
          testId="admin-search"
          className="admin-search"
          placeholder={t('admin.search')}
        />
      </header>
      <FormError error={error} />
      {list && (
        <>
          <table className="admin-table" data-testid="admin-users">
            <thead>
              <tr>
                <th>{t('admin.account')}</th>
                <th>{t('account.plan')}</th>
                <th>{t('admin.created')}</th>
                <th>{t('admin.lastActive')}</th>
                <th className="admin-number">{t('admin.files')}</th>
                <th className="admin-number">{t('admin.tasks')}</th>
                <th className="admin-number">{t('admin.stored')}</th>
                <th className="admin-number">{t('admin.cloud')}</th>
              </tr>
            </thead>
            <tbody>
              {list.users.map((user) => (
                <tr key={user.user_id} data-testid="admin-user" data-email={user.email}>
                  <td className="admin-who">
                    <strong>{user.email}</strong>
                    <span className="admin-tags">
                      {`${user.first_name} ${user.last_name}`.trim() && <span>{`${user.first_name} ${user.last_name}`.trim()}</span>}
                      {user.operator && <span className="admin-tag admin-tag-operator">{t('admin.operator')}</span>}
                      {!user.verified && <span className="admin-tag">{t('admin.unverified')}</span>}
                    </span>
                  </td>
                  <td data-label={t('account.plan')}>
                    <select
                      className="admin-plan"
                      aria-label={t('admin.planOf', { email: user.email })}
                      data-testid="admin-plan"
                      value={user.plan}
                      onChange={(e) => void changePlan(user, e.target.value as Plan)}
                    >
                      {plans.map((p) => (
                        <option key={p} value={p}>
                          {t(PLAN_NAMES[p])}
                        </option>
                      ))}
                    </select>
                  </td>
                  <td data-label={t('admin.created')}>{date(user.created_at)}</td>
                  <td data-label={t('admin.lastActive')}>{date(user.last_active_at)}</td>
                  <td data-label={t('admin.files')} className="admin-number">
                    {user.files}
                  </td>
                  <td data-label={t('admin.tasks')} className="admin-number">
                    {user.tasks}
                  </td>
                  <td data-label={t('admin.stored')} className="admin-number" data-testid="admin-bytes">
                    {sizes.bytes(user.bytes)}
                  </td>
                  <td data-label={t('admin.cloud')} className="admin-number" data-testid="admin-cloud">
                    {t('admin.cloudUse', { count: user.cloud_files, size: sizes.bytes(user.cloud_bytes) })}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          {list.total === 0 && <p className="admin-empty">{t('admin.none')}</p>}
          <nav className="admin-pages" aria-label={t('admin.pages')}>
            <span data-testid="admin-range">{t('admin.range', { first, last, total: list.total })}</span>
            <button type="button" className="button button-outline button-small" disabled={page <= 1} onClick={() => setPage(page - 1)}>
              {t('admin.previous')}
            </button>
            <button
              type="button"
              className="button button-outline button-small"
              disabled={last >= list.total}
              onClick={() => setPage(page + 1)}
            >
              {t('admin.next')}
            </button>
          </nav>
        </>
      )}
    </div>
  );
}
