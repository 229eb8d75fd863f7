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

/** GET /v1/admin/stats: an app at a glance, as the console's overview shows it. */
export interface AdminStats extends Acknowledged {
  member_count: number;
  /** Members who logged progress in the last 7 days (today among them, in the app's time zone). */
  active_members_7d: number;
  /** The last 30 days, oldest first, today last; a day without completions is there with 0. */
  completions_by_day: { day: string; completions: number }[];
  /** The 5 tasks completed most over those days, most first. */
  top_tasks: { task_id: string; name: string; completions: number }[];
  /** Submissions waiting for review, counted up to 100. */
  pending_reviews: number;
  /** Whether there are more than pending_reviews. */
  pending_reviews_capped: boolean;
}

/** POST /v1/admin/import?dry_run=true: what the import would change in each app it names. */
export interface DryRun extends Acknowledged {
  app_ids: string[];
  dry_run: true;
  changes: {
    app_id: string;
    /** Whether the import would create the app. */
    new_app: boolean;
    members_before: number;
    members_after: number;
    /** How many of each the dataset brings (new or updated). */
    challenges: number;
    tasks: number;
    progress: number;
  }[];
}
