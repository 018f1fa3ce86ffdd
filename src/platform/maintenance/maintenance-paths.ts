/**
 * What maintenance mode closes: every public and user route (`/api/...`), media files (`/media/...`)
 * and any HTML page; what stays open: `/api/ping`, the probes (`/health/live`, `/health/ready`) and the
 * admin API (`/admin/...`), so load balancers keep the instances in rotation and operators keep working, and the web pages' static assets (`/assets/...`, served
 * from memory), so the maintenance page itself is drawn with its stylesheet.
 */
export function closedDuringMaintenance(path: string): boolean {
  return !(
    path === '/api/ping' ||
    path.startsWith('/health/') ||
    path === '/admin' ||
    path.startsWith('/admin/') ||
    path.startsWith('/assets/')
  );
}
