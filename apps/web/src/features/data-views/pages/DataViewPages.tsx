import { DataViewPage } from './DataViewPage';

/** One page per route of the data views, each the shared page with its kind. */
export const ServingsPage = () => <DataViewPage kind="servings" />;
export const ActivitiesPage = () => <DataViewPage kind="activities" />;
export const ActivitiesRangePage = () => <DataViewPage kind="activitiesRange" />;
export const SleepPage = () => <DataViewPage kind="sleep" />;
