import { Outlet, useLocation } from 'react-router';
import { useClearPatientSearchOutsidePatientPages } from '../../features/patients/searchStore';
import { useDocumentTitle } from '../documentTitle';

/** The root of every route: pages outside the console render straight here. */
export function AppRoot() {
  const { pathname } = useLocation();
  // Here rather than in the console shell: leaving the patient pages for a page outside the console (not
  // authorized, legal texts) clears the search too (01 §2).
  useClearPatientSearchOutsidePatientPages(pathname);
  useDocumentTitle();
  return <Outlet />;
}
