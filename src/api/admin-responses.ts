// What the admin API answers, as types only: the console and scripts read these answers, and
// no remote strategy checks them at run time (responses.ts holds the schemas it checks), so
// no bundle carries code for them.
import type { Acknowledged } from './responses.js';

export interface AppSummary {
  app_id: string;
  name: string;
  member_count: number;
}

/** GET /v1/admin/apps. */
export interface AdminApps extends Acknowledged {
  apps: AppSummary[];
}
